// A short rules page per game, in words a new player reads in two minutes (the full digital
// rules are in docs/<kind>.md; the rulebooks are the source of truth). English here; each other
// language's pages in ./rules/<language>.js, the same shape, loaded when the page is in it. A game
// a language has no page for yet shows the English one.
import { pseudoText } from "./i18n.js";

const LANGUAGES = { fr: () => import("./rules/fr.js"), de: () => import("./rules/de.js"), "en-XA": async () => ({ default: pseudoPages() }) };

/** The rules page of `kind` in `language` (English where that language has none), or null. */
export async function rulesFor(kind, language) {
  const loader = LANGUAGES[language];
  const pages = loader ? (await loader()).default : RULES;
  return pages[kind] ?? RULES[kind] ?? null;
}

// The pseudo-locale's pages (i18n.js): English, accented and longer; the games' names stay.
function pseudoPages() {
  return Object.fromEntries(Object.entries(RULES).map(([kind, page]) => [kind, {
    title: page.title, players: pseudoText(page.players), aim: pseudoText(page.aim), steps: page.steps.map(pseudoText) }]));
}

export const RULES = {
  pickpic: {
    title: "Pick Pic", players: "3 to 5 players",
    aim: "Find the card that fits each player's photo best, and rank the cards you are given for yours.",
    steps: [
      "Each round, a photo is turned face up in front of every player.",
      "Give: you get a hand of cards and give one (or two, at three players) to each other player, the ones that fit their photo best. Everybody gives at once, in secret.",
      "Rank: a random card joins the cards you received. Rank your stack, the best fit for your photo first, without knowing who gave what.",
      "Scoring: every card ranked above the random card scores 1 point for its giver and 1 for you; the giver of your top card scores 2. Nothing counts below the random card; putting the random card last earns you 1 point.",
      "The first player to reach the target score wins (ties share the victory).",
    ],
  },
  photograph: {
    title: "Photograph", players: "2 to 4 players",
    aim: "Fill your photo reels with well-ordered shots of each colour; avoid blurred shots.",
    steps: [
      "Your turn has two moves. Take: choose a row end of the layout and take 1 to 3 cards from it into your hand (from the right).",
      "Wind the film: move one card of your hand to a new place. Then as many cards as you took are played from the left of your hand onto your reels.",
      "A reel of one colour must go up or down, 1 to 3 beyond the previous card; a card that does not fit is a blurred shot (it scores against you).",
      "The first to have 4 shots in a colour (3 at four players) claims that colour's good shot card.",
      "When the sunset card appears the game ends soon after; the best total of reels and good shot cards wins.",
    ],
  },
  provence: {
    title: "Walking in Provence", players: "2 to 5 players, 10 rounds",
    aim: "Build a Provence landscape and walk your photographer and drone to take the best photos.",
    steps: [
      "Each round, everybody chooses a scene card at once and places it on their landscape (turned, or tucked under), then passes the rest of the hand on.",
      "Then everybody walks: the photographer and the drone each move to a new meadow, or stay.",
      "A photo card is completed when the squares it asks for lie in your photographer's (or your drone's) frame: put a marker on its best free spot.",
      "At the end, lavender, wheat, sunflowers, towns, photos and the two goal cards score; the most points wins.",
    ],
  },
  photoshoot: {
    title: "Photoshoot", players: "2 to 6 players, in real time",
    aim: "Arrange the nine animals of the square as the photo objective shows before the hourglass runs out.",
    steps: [
      "Ready: when the photographers and one member of the control team are ready, the hourglass starts.",
      "The photographers take turns: swap two characters, or let Jo push a row; call “Photo!” when the objective is in place.",
      "Effect cards add rituals (smile, applaud, say a phrase…). Forgetting one is an error.",
      "The control team may challenge the latest action: a right challenge wins the camera token, a wrong one gives it to the photographers.",
      "With 2 or 3 players you play together against the hourglass (the referee catches errors); with 4 to 6, two teams take turns photographing.",
    ],
  },
};
