"""The 120 photo cards: a catalogue (id, title, tags) and a simple generated image per card.

The published game's cards are photographs; we ship invented subjects so the game is playable
out of the box. A deployment may serve its own photo set instead: the images are addressed by
`image_path(id)` relative to a configurable base URL, so only the files change.
"""

from __future__ import annotations

import hashlib
from typing import Any
from xml.sax.saxutils import escape

DECK_SIZE = 120
IMAGE_DIR = "cards/pickpic"

# "Title | tag, tag, tag[, tag]" in id order (line 1 is card 1).
_RAW = """
Lighthouse at Dusk | coast, evening, solitude, light
Old Fisherman Mending Nets | sea, hands, craft, age
Child Chasing Pigeons | city, play, birds, motion
Foggy Pine Forest | trees, mist, calm, green
Red Umbrella in the Rain | rain, street, red, alone
Desert Dunes at Noon | sand, heat, pattern, empty
Grandmother's Kitchen | home, food, warmth, memory
Subway Rush Hour | crowd, commute, speed, urban
Frozen Waterfall | ice, winter, stillness, blue
Street Market Spices | color, smell, trade, crowd
Abandoned Carousel | decay, childhood, nostalgia, rust
Surfer in a Barrel Wave | ocean, sport, courage, spray
Night Sky over Mountains | stars, dark, vast, wonder
Wedding Confetti | celebration, love, joy, people
Empty Swimming Pool | summer, absence, geometry, blue
Cat on a Windowsill | pet, sunlight, lazy, home
Neon Diner Sign | night, retro, glow, food
Sunflower Field | yellow, summer, farm, sun
Marathon Finish Line | effort, triumph, crowd, sport
Rusty Bicycle Against a Wall | old, travel, city, rust
Hot Air Balloons at Dawn | sky, float, morning, color
Library Reading Room | books, quiet, study, wood
Storm over the Prairie | weather, power, dark, open
Street Violinist | music, city, performance, solitude
Cherry Blossoms in the Park | spring, pink, fleeting, bloom
Construction Crane at Sunset | work, steel, height, city
Puppy Asleep in a Basket | pet, sleep, soft, small
Empty Classroom | school, chairs, silence, memory
Volcano Smoke Plume | fire, power, danger, earth
Tea Ceremony | ritual, calm, tradition, cup
Graffiti Wall | art, color, rebellion, street
Penguins on the Ice | animals, cold, group, white
Harvest Moon over a Barn | night, farm, autumn, orange
Old Typewriter | writing, vintage, machine, words
Kite Festival | sky, play, wind, color
Snowed-in Cabin | winter, shelter, wood, warmth
Airport Departure Board | travel, waiting, departure, time
Coral Reef Fish | underwater, color, life, sea
Dancer Mid-Leap | motion, grace, body, stage
Rain on a Car Window | rain, blur, travel, melancholy
Farmer on a Tractor | work, field, machine, earth
Chess in the Park | strategy, age, leisure, city
Broken Mirror | reflection, shards, glass, luck
Hammock on a Tropical Beach | rest, sun, palm, holiday
Firefighters at Work | danger, courage, team, fire
Autumn Leaves on a Path | orange, fall, walk, change
Old Clock Tower | time, stone, city, history
Elephant Family Crossing | animals, family, savanna, dust
Hands Kneading Bread | food, craft, hands, home
Skyscraper Windows | glass, pattern, city, height
Birthday Candles | celebration, fire, wish, age
Shipwreck on the Shore | sea, decay, history, rust
Fireworks over the River | night, celebration, light, water
A Soldier's Letter | war, paper, longing, history
Morning Coffee Steam | morning, cup, warmth, routine
Lonely Bench in the Snow | winter, empty, waiting, solitude
Drawings on a Fridge | childhood, home, color, pride
Racing Cars in the Rain | speed, sport, spray, danger
Mossy Stone Bridge | green, old, water, path
Astronaut Floating | space, weightless, wonder, technology
Crowded Beach | summer, people, sun, noise
Wolf Howling | wild, night, animal, call
Torn Movie Poster | cinema, decay, paper, street
Climber on a Ridge | height, courage, snow, effort
Flower Shop Window | bloom, color, shop, spring
Empty Parking Garage | concrete, night, silence, geometry
Grandfather's Watch | time, heirloom, gold, memory
Protest March | crowd, voice, signs, change
Bonfire on the Beach | fire, night, friends, warmth
Butterfly on a Thistle | insect, delicate, summer, wings
Train on a Viaduct | travel, engineering, valley, steam
Worn Ballet Shoes | dance, worn, pink, practice
Flooded Street | water, disaster, reflection, city
Peacock Feathers | color, pride, pattern, bird
Night Market Lanterns | light, food, crowd, red
Snowman in a Garden | winter, play, childhood, white
Vineyard Rows | farm, wine, pattern, autumn
Boxing Gloves | sport, fight, sweat, leather
Icebergs in a Fjord | ice, blue, vast, cold
Vintage Car in the Desert | road, retro, travel, heat
Mother and Newborn | love, family, beginning, soft
Lightning Strike | storm, power, light, danger
Paper Boats in a Puddle | rain, play, childhood, fragile
Cathedral Interior | faith, stone, light, vast
Harbor at Dawn | boats, sea, morning, work
Owl in a Hollow Tree | bird, night, wisdom, wood
Phone Glow in the Dark | technology, night, face, light
Rice Terraces | farm, green, pattern, mountain
Circus Tent | performance, stripes, childhood, show
Worn Hiking Boots | travel, path, effort, leather
Melting Ice Cream | summer, sweet, mess, childhood
Horse Galloping on the Beach | animal, freedom, sea, motion
Laundry on a Line | home, wind, color, routine
Empty Road to the Horizon | road, empty, travel, vast
Hands on a Piano | music, hands, keys, focus
Crane in the Fog | fog, industry, sea, grey
Dog Catching a Frisbee | pet, play, jump, summer
Old Photo Album | memory, family, paper, nostalgia
Sand Castle and Wave | beach, fragile, childhood, sea
Bamboo Forest | green, tall, calm, wind
Restaurant Kitchen Rush | food, fire, team, rush
Stained Glass Window | color, light, faith, pattern
Scarecrow in a Field | farm, autumn, lonely, straw
Glowing Jellyfish | sea, glow, delicate, dark
Skateboarder in Mid-Air | sport, youth, jump, street
Rooftop Garden | green, city, height, calm
Stack of Old Suitcases | travel, vintage, leather, journey
Polar Bear on Drifting Ice | animal, cold, alone, white
Candlelit Dinner | romance, night, food, warmth
Wind Turbines on a Hill | energy, wind, modern, sky
Chalk Drawings on Pavement | art, childhood, color, street
Mushroom in the Moss | forest, small, earth, autumn
Carnival Masks | mystery, color, celebration, face
Glacier Cave | ice, blue, light, cold
Tangled Headphones | music, technology, mess, everyday
Golden Wheat at Sunset | farm, gold, evening, harvest
Street Food Vendor | food, steam, city, work
Old Man Feeding Ducks | age, park, birds, calm
Ferris Wheel at Night | light, fair, height, fun
Footprints in the Snow | winter, path, trace, solitude
"""


def _parse(raw: str) -> list[dict[str, Any]]:
    cards = []
    for number, line in enumerate((ln for ln in raw.splitlines() if ln.strip()), start=1):
        title, _, tags = line.partition("|")
        cards.append({"id": number, "title": title.strip(), "tags": [t.strip() for t in tags.split(",")]})
    return cards


CATALOGUE: list[dict[str, Any]] = _parse(_RAW)
_BY_ID = {c["id"]: c for c in CATALOGUE}
CARD_IDS: tuple[int, ...] = tuple(_BY_ID)


def card(card_id: int) -> dict[str, Any]:
    """The catalogue entry of `card_id` (a copy); KeyError for an unknown id."""
    found = _BY_ID[card_id]
    return {"id": found["id"], "title": found["title"], "tags": list(found["tags"])}


def is_card(value: Any) -> bool:
    """A card id as a move may name it: an int (never a bool) of the catalogue."""
    return type(value) is int and value in _BY_ID


def image_path(card_id: int) -> str:
    """The image's path under the static (or the deployment's own) image base URL."""
    return f"{IMAGE_DIR}/{card_id}.svg"


# --------------------------------------------------------------------------------------------
# Generated images: a coloured card with the title and the tags, nothing fetched or drawn.
# --------------------------------------------------------------------------------------------
def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def card_svg(entry: dict[str, Any]) -> str:
    """A 300x420 SVG for one catalogue entry: its photograph (a procedural scene, `art.py`) in the
    frame, the title and tags under it. The same entry always gives the same bytes."""
    from .art import scene

    digest = hashlib.sha256(entry["title"].encode()).digest()
    hue = int.from_bytes(digest[:2], "big") % 360
    setting, light, drawing = scene(entry)
    title_lines = _wrap(entry["title"], 20)
    title = "".join(
        f'<tspan x="150" dy="{0 if i == 0 else 24}">{escape(line)}</tspan>' for i, line in enumerate(title_lines[:2])
    )
    words = [f"#{tag}" for tag in entry["tags"]]
    rows = [words] if len("  ".join(words)) <= 30 else [words[:2], words[2:]]
    tags = "".join(
        f'<text x="150" y="{(386 if len(rows) == 1 else 376) + 20 * i}" class="tag">{escape("  ".join(row))}</text>'
        for i, row in enumerate(rows)
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="420" viewBox="0 0 300 420">'
        f"<title>{escape(entry['title'])}</title>"
        "<style>text{font-family:Georgia,serif;text-anchor:middle}"
        ".title{font-size:21px;fill:#1d1d1f;font-weight:bold}.tag{font-size:15px;fill:#444}"
        ".id{font-size:16px;fill:#555;text-anchor:end}</style>"
        f'<rect width="300" height="420" rx="16" fill="hsl({hue},30%,94%)"/>'
        f'<svg x="18" y="18" width="264" height="270" viewBox="0 0 264 270" data-setting="{setting}" data-light="{light}">{drawing}</svg>'
        f'<rect x="18" y="18" width="264" height="270" fill="none" stroke="#222" stroke-width="2"/>'
        # The number in the frame, not on the photograph: a table that crops the card to its
        # photograph writes the number as page text instead.
        f'<text x="288" y="412" class="id">#{entry["id"]}</text>'
        f'<text y="{326 if len(title_lines) > 1 else 336}" class="title">{title}</text>'
        f"{tags}</svg>\n"
    )
