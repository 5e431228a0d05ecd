"""A third-party package that makes its bot a clinea player through the
`clinea.players` entry-point group, installed as pip lays one out (the
package beside its .dist-info folder): with the folder on sys.path or
PYTHONPATH, importlib.metadata finds the entry point as it finds any."""
import textwrap
from pathlib import Path

PLUGIN_PLAYER = "plugbot"


def write_plugin_site(root: Path) -> Path:
    """A site folder under `root` holding the package `plugbots`, which
    registers the player `plugbot` (always the leftmost legal column)."""
    site = root / "site"
    package = site / "plugbots"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent("""
        from clinea.players import Bot

        class Leftmost(Bot):
            '''Always the leftmost legal column.'''
            name = "plugbot"

            def choose(self, board):
                return board.legal_columns()[0]
        """))
    info = site / "plugbots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plugbots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[clinea.players]\n{PLUGIN_PLAYER} = plugbots:Leftmost\n")
    return site
