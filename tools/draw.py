"""Draw a board's graph as a PNG with networkx + matplotlib: labelled areas, land and sea told apart.

Areas sit where the content puts them (`at X Y`, laid out like the printed map); a board whose areas lack
positions falls back to a graph layout (seeded, so the same board always gives the same picture).
For the full picture of a position, see tools/render.py (`maester render`).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
import networkx as nx  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from maester.interpreter.core.board import LAND, PORT, SEA, Board  # noqa: E402

_COLOURS = {LAND: "#e3d3a4", SEA: "#8fbde3", PORT: "#c2d3e0"}
_SHAPES = {LAND: "s", SEA: "o", PORT: "D"}


def layout(board: Board) -> dict[str, tuple[float, float]]:
    """The content's geometry (y grows south there, north up here); without it a stable graph layout:
    Kamada–Kawai when SciPy is there (tidier), else a seeded spring layout."""
    if all(a.at for a in board.areas):
        return {a.id: (float(a.at[0]), -float(a.at[1])) for a in board.areas}
    try:
        return nx.kamada_kawai_layout(board.graph)
    except (ImportError, ModuleNotFoundError):
        return nx.spring_layout(board.graph, seed=7, iterations=300, k=0.9)


def draw_board(board: Board, target: Path, size: tuple[float, float] = (22, 22)) -> None:
    pos = layout(board)
    fig, ax = plt.subplots(figsize=size, dpi=80)
    ax.set_title(f"maester — board '{board.id}': {len(board)} areas, {board.graph.number_of_edges()} borders",
                 fontsize=18)
    plain = [e for e in board.graph.edges if frozenset(e) not in board.links]
    nx.draw_networkx_edges(board.graph, pos, edgelist=plain, ax=ax, edge_color="#777777", width=1.2)
    if board.links:
        nx.draw_networkx_edges(board.graph, pos, edgelist=[tuple(p) for p in board.links], ax=ax,
                               edge_color="#1f5f9f", width=2.5, style="dashed")
    for kind in (LAND, SEA, PORT):
        nodes = [a.id for a in board.areas if a.kind == kind]
        sizes = [1500 if board.area(n).has_castle else 1000 for n in nodes] if kind == LAND else (
            1300 if kind == SEA else 450)
        edge = ["#8b0000" if kind == LAND and board.area(n).has_castle else "#444444" for n in nodes]
        nx.draw_networkx_nodes(board.graph, pos, nodelist=nodes, node_color=_COLOURS[kind],
                               node_shape=_SHAPES[kind], node_size=sizes, edgecolors=edge,
                               linewidths=1.5, ax=ax)
    labels = {a.id: a.name.replace(" ", "\n", 1) if len(a.name) > 12 else a.name for a in board.areas}
    nx.draw_networkx_labels(board.graph, pos, labels=labels, font_size=8, ax=ax)
    legend = [
        Line2D([0], [0], marker="s", color="w", markerfacecolor=_COLOURS[LAND], markersize=14, label="land"),
        Line2D([0], [0], marker="s", color="w", markerfacecolor=_COLOURS[LAND], markeredgecolor="#8b0000",
               markersize=14, label="land with castle/stronghold"),
        Line2D([0], [0], marker="o", color="w", markerfacecolor=_COLOURS[SEA], markersize=14, label="sea"),
        Line2D([0], [0], marker="D", color="w", markerfacecolor=_COLOURS[PORT], markersize=10, label="port"),
    ]
    if board.links:
        legend.append(Line2D([0], [0], color="#1f5f9f", linestyle="dashed", lw=2.5, label="Westeros–Essos link"))
    ax.legend(handles=legend, loc="lower left", fontsize=12)
    ax.set_aspect("equal")  # the map's proportions, not the figure's
    ax.axis("off")
    fig.tight_layout()
    fig.savefig(target)
    plt.close(fig)
