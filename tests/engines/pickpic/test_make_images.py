"""make_images writes one SVG per card."""

from games.engines.pickpic import cards
from games.engines.pickpic.make_images import main, write_images


def test_write_images_writes_the_120_generated_svgs(tmp_path):
    written = write_images(tmp_path / "out")
    assert len(written) == 120
    assert (tmp_path / "out" / "120.svg").read_text() == cards.card_svg(cards.card(120))


def test_main_takes_the_output_directory_as_argument(tmp_path, capsys):
    main(["make_images", str(tmp_path)])
    assert len(list(tmp_path.glob("*.svg"))) == 120
    assert "wrote 120 card images" in capsys.readouterr().out
