"""The case map: a case's shape as a graph laid out for a picture, without Django.

`case_map(data, blind=...)` reads a case's typed data (`cases.package.data.CaseData`, as
the linter does) and returns its nodes (the booklet, the questions, the solution and every
location card) placed on a grid, and its edges:

- evidence: a card → a question it proves (the question's evidence list);
- reference: a text (a card, the booklet, a question) → a card its `[[n]]` names;
- solution: the solution → a card it cites with `[[n]]`;
- lockpick: a card with the lockpick icon → each locked card (any lockpick opens any lock).

It marks what needs the writer's eye, with the linter's own judgements where the linter
makes one (`cases.lint`): an evidence card the solution never cites; a locked card that no
lockpick opens; a card nothing refers to; a question proved by one card only.

A blind map (a moderator who has not revealed the solution) leaves out everything that
comes from the solution or the evidence lists, which point to the answers: no solution
node, no evidence edge, and no mark that only they could make.
"""

import math
from dataclasses import dataclass, field

from cases.lint import (
    CARD_REFERENCE,
    cards_used_as_evidence,
    evidence_the_solution_never_cites,
)
from cases.package.data import CaseData, LocationData

# The grid: every node is a box of one size, so that 40 cards stay a tidy block.
NODE_WIDTH = 164
NODE_HEIGHT = 64
GAP_X = 24
GAP_Y = 48
MARGIN = 16
ZONE_LABEL_HEIGHT = 26
MAX_COLUMNS = 6
MIN_COLUMNS = 3
# A map wider than this shrinks to fit a wide screen, down to this width (10 px text for
# the widest map): below it, on a phone, it scrolls sideways instead.
SHRINK_TO = 860
# Characters of a title that fit in a box at the map's font size; longer titles are cut.
TITLE_CHARACTERS = 19

ICON_WORDS = {
    "police": "police",
    "call_off": "call-off",
    "lockpick": "lockpick",
    "carriages": "carriages",
    "no_watson": "no Watson",
    "no_police": "no police",
    "locked": "locked",
}

# What each mark says, in the writer's words (the map in words, under the picture).
MARK_WORDS = {
    "uncited": "evidence the solution never cites",
    "locked_unopened": "locked, and no lockpick opens it",
    "unreached": "nothing refers to it",
    "one_card": "proved by one card only",
    "no_evidence": "no card is listed as its evidence",
}

EDGE_WORDS = {
    "evidence": "proves",
    "reference": "refers to",
    "solution": "cites",
    "lockpick": "opens",
}


@dataclass
class Node:
    id: str
    kind: str  # "card", "question", "booklet" or "solution"
    label: str  # the short line in the box: "12 Smithfield Market"
    title: str  # the whole name, for the map in words
    x: int = 0
    y: int = 0
    number: int | None = None  # a card's number; a question's position (from 1)
    key: str = ""  # a question's id
    details: str = ""  # the second line: a card's icons
    zone: str = ""  # a card's zone, by its name
    locked: bool = False
    marks: list[str] = field(default_factory=list)
    href: str = ""  # where a click goes: the node's row in the editor (set by the page)

    @property
    def width(self) -> int:
        return NODE_WIDTH

    @property
    def height(self) -> int:
        return NODE_HEIGHT

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + NODE_WIDTH / 2, self.y + NODE_HEIGHT / 2

    @property
    def mark_words(self) -> list[str]:
        return [MARK_WORDS[mark] for mark in self.marks]

    @property
    def short_name(self) -> str:
        """How a sentence names the node: "card 12", "question 2", "the solution"."""
        if self.kind in ("card", "question"):
            return f"{self.kind} {self.number}"
        return f"the {self.kind}"

    @property
    def badge(self) -> str:
        """What the box shows before its label: a card's number, "Q2" for a question."""
        if self.kind == "card":
            return str(self.number)
        return f"Q{self.number}" if self.kind == "question" else ""

    @property
    def description(self) -> str:
        """The box in one line, for a screen reader (its description: the box's own text
        is its name, so that what a sighted user reads is what a spoken command names)."""
        shown = f"{self.badge} {self.label}".strip()
        parts = []
        if self.label.endswith("…"):
            parts.append(self.title)  # the whole name, cut in the box
        elif self.kind in ("card", "question"):
            parts.append(self.kind)
        if self.locked:
            parts.append("locked")
        if self.details:
            parts.append(self.details)
        if self.zone:
            parts.append(f"zone {self.zone}")
        if self.marks:
            parts.append("to check: " + "; ".join(self.mark_words))
        return f"{shown}: {', '.join(parts)}" if parts else shown


@dataclass
class Edge:
    kind: str  # "evidence", "reference", "solution" or "lockpick"
    source: str
    target: str
    marked: bool = False  # an evidence edge the solution never cites
    path: str = ""  # the SVG path, once laid out


@dataclass
class ZoneBand:
    name: str
    y: int


@dataclass
class CaseMap:
    nodes: list[Node]
    edges: list[Edge]
    zones: list[ZoneBand]
    width: int
    height: int
    blind: bool

    @property
    def shrinks(self) -> bool:
        return self.width > SHRINK_TO

    @property
    def cards(self) -> list[Node]:
        return [node for node in self.nodes if node.kind == "card"]

    @property
    def questions(self) -> list[Node]:
        return [node for node in self.nodes if node.kind == "question"]

    @property
    def marked(self) -> list[Node]:
        return [node for node in self.nodes if node.marks]

    def node(self, node_id: str) -> Node:
        return self._by_id()[node_id]

    def _by_id(self) -> dict[str, Node]:
        return {node.id: node for node in self.nodes}

    def edges_from(self, node_id: str) -> list[Edge]:
        return [edge for edge in self.edges if edge.source == node_id]

    def edges_to(self, node_id: str) -> list[Edge]:
        return [edge for edge in self.edges if edge.target == node_id]

    def in_words(self) -> list[tuple[Node, str]]:
        """Each node with its arrows in a sentence: the map for a screen reader."""
        by_id = self._by_id()
        rows = []
        for node in self.nodes:
            going: dict[str, list[str]] = {}
            for edge in self.edges_from(node.id):
                going.setdefault(edge.kind, []).append(by_id[edge.target].short_name)
            parts = [f"{EDGE_WORDS[kind]} {', '.join(names)}" for kind, names in going.items()]
            coming = [by_id[edge.source].short_name for edge in self.edges_to(node.id)]
            if coming:
                parts.append("reached from " + ", ".join(coming))
            rows.append((node, "; ".join(parts)))
        return rows

    def summary(self) -> str:
        """What the map shows, in a sentence or two (the picture's description)."""
        count = len(self.cards)
        text = f"{count} card{'s' if count != 1 else ''}, {len(self.questions)} question"
        text += "s" if len(self.questions) != 1 else ""
        kinds = {edge.kind for edge in self.edges}
        shown = [word for kind, word in EDGE_WORDS.items() if kind in kinds]
        if shown:
            text += "; arrows: " + ", ".join(f"“{word}”" for word in shown)
        marked = len(self.marked)
        text += f"; {marked} to check." if marked else "; nothing to check."
        if self.blind:
            text += (
                " The evidence and the solution's references stay hidden until you reveal"
                " the solution."
            )
        return text


def card_id(number: int) -> str:
    return f"card-{number}"


def question_id(key: str) -> str:
    return f"question-{key}"


BOOKLET = "booklet"
SOLUTION = "solution"


# Building the graph ----------------------------------------------------------------------


def case_map(data: CaseData, *, blind: bool) -> CaseMap:
    """The map of a case: its nodes, edges and marks, laid out."""
    cards = _cards(data)
    numbers = {location.number for location in cards}
    zone_names = {zone.key: zone.name for zone in data.zones}
    nodes = [
        Node(
            id=BOOKLET,
            kind="booklet",
            label="Booklet",
            title="The booklet",
            details="introduction, special rules",
        )
    ]
    nodes += [
        _question_node(data, position, question, blind=blind)
        for position, question in enumerate(data.questions, start=1)
    ]
    if not blind:
        nodes.append(Node(id=SOLUTION, kind="solution", label="Solution", title="The solution"))
    card_nodes = [_card_node(location, zone_names) for location in cards]
    nodes += card_nodes
    edges = _reference_edges(data, cards, numbers, blind=blind)
    edges += _lockpick_edges(cards)
    if not blind:
        edges = _evidence_edges(data, numbers) + edges
    _mark_cards(data, card_nodes, edges, blind=blind)
    return _laid_out(nodes, edges, data, blind=blind)


def _cards(data: CaseData) -> list[LocationData]:
    """The cards with a number, once each, in number order (a number read twice or not
    read at all is a lint error of its own: the map shows the first)."""
    seen, cards = set(), []
    for location in sorted(
        (loc for loc in data.locations if loc.number is not None), key=lambda loc: loc.number
    ):
        if location.number not in seen:
            seen.add(location.number)
            cards.append(location)
    return cards


def _short(text: str, limit: int = TITLE_CHARACTERS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _card_node(location: LocationData, zone_names: dict[str, str]) -> Node:
    name = " ".join(location.name.split()) or "(no name)"
    icons = [ICON_WORDS.get(icon, icon) for icon in location.icons if icon != "locked"]
    return Node(
        id=card_id(location.number),
        kind="card",
        number=location.number,
        label=_short(name),
        title=f"Card {location.number}: {name}",
        details=", ".join(icons),
        zone=zone_names.get(location.zone, location.zone),
        locked="locked" in location.icons,
    )


def _question_node(data: CaseData, position: int, question, *, blind: bool) -> Node:
    ask = " ".join(question.ask.split()) or "(no question yet)"
    node = Node(
        id=question_id(question.key),
        kind="question",
        number=position,
        key=question.key,
        label=_short(ask, TITLE_CHARACTERS - 3),
        title=f"Question {position}: {ask}",
    )
    if not blind:
        existing = {location.number for location in data.locations}
        proving = {number for number in question.evidence if number in existing}
        if len(proving) == 1:
            node.marks.append("one_card")
        elif not proving:
            node.marks.append("no_evidence")
    return node


def references(text: str) -> list[int]:
    """The card numbers a text names with [[n]], once each, in order (the linter's pattern)."""
    return list(dict.fromkeys(int(number) for number in CARD_REFERENCE.findall(text or "")))


def _reference_edges(data, cards, numbers: set[int], *, blind: bool) -> list[Edge]:
    texts = [(BOOKLET, f"{data.introduction}\n{data.special_rules}", "reference")]
    texts += [(question_id(q.key), q.ask, "reference") for q in data.questions]
    texts += [(card_id(location.number), location.text, "reference") for location in cards]
    if not blind:
        texts.append((SOLUTION, data.solution, "solution"))
    edges, seen = [], set()
    for source, text, kind in texts:
        for number in references(text):
            target = card_id(number)
            if number in numbers and target != source and (source, target) not in seen:
                seen.add((source, target))
                edges.append(Edge(kind=kind, source=source, target=target))
    return edges


def _evidence_edges(data: CaseData, numbers: set[int]) -> list[Edge]:
    uncited = set(evidence_the_solution_never_cites(data))
    edges, seen = [], set()
    for question in data.questions:
        for number in question.evidence:
            pair = (number, question.key)
            if number in numbers and pair not in seen:
                seen.add(pair)
                marked = (question.key, number) in uncited
                edges.append(
                    Edge("evidence", card_id(number), question_id(question.key), marked=marked)
                )
    return edges


def _opening_lockpicks(cards: list[LocationData]) -> set[int]:
    """The lockpick cards a player can read without a lockpick: the ones that open locks
    (the writer's guide: a lockpick behind a lock opens nothing)."""
    return {loc.number for loc in cards if "lockpick" in loc.icons and "locked" not in loc.icons}


def _lockpick_edges(cards: list[LocationData]) -> list[Edge]:
    lockpicks = [loc for loc in cards if "lockpick" in loc.icons]
    locked = [loc for loc in cards if "locked" in loc.icons]
    return [
        Edge("lockpick", card_id(pick.number), card_id(lock.number))
        for pick in lockpicks
        for lock in locked
        if pick.number != lock.number
    ]


def _mark_cards(data: CaseData, card_nodes: list[Node], edges: list[Edge], *, blind: bool):
    uncited = {number for _, number in evidence_the_solution_never_cites(data)}
    used = cards_used_as_evidence(data)
    referred = {edge.target for edge in edges if edge.kind in ("reference", "solution")}
    opened = bool(data.start_lockpick) or bool(_opening_lockpicks(_cards(data)))
    for node in card_nodes:
        if node.locked and not opened:
            node.marks.append("locked_unopened")
        if blind:
            continue  # the rest is judged from the evidence and the solution
        if node.number in uncited:
            node.marks.append("uncited")
        if node.number not in used and node.id not in referred:
            node.marks.append("unreached")


# Laying it out -----------------------------------------------------------------------------


def columns_for(card_count: int) -> int:
    """Columns of the grid: near a square block, 3 to 6 wide (40 cards: 6 × 7)."""
    return max(MIN_COLUMNS, min(MAX_COLUMNS, math.ceil(math.sqrt(card_count))))


def _laid_out(nodes: list[Node], edges: list[Edge], data: CaseData, *, blind: bool) -> CaseMap:
    cards = [node for node in nodes if node.kind == "card"]
    top = [node for node in nodes if node.kind != "card"]
    columns = max(columns_for(len(cards)), min(len(top), MAX_COLUMNS))
    y = _place_rows(top, columns, MARGIN)
    zones = []
    for zone_name, members in _by_zone(cards, data):
        y += GAP_Y // 2
        if zone_name:
            zones.append(ZoneBand(name=zone_name, y=y))
            y += ZONE_LABEL_HEIGHT
        y = _place_rows(members, columns, y)
    width = 2 * MARGIN + columns * NODE_WIDTH + (columns - 1) * GAP_X
    by_id = {node.id: node for node in nodes}
    for edge in edges:
        edge.path = _edge_path(by_id[edge.source], by_id[edge.target])
    return CaseMap(
        nodes=nodes, edges=edges, zones=zones, width=width, height=y + MARGIN, blind=blind
    )


def _place_rows(nodes: list[Node], columns: int, y: int) -> int:
    """Place nodes in rows of `columns` from height y; the height below the last row."""
    for index, node in enumerate(nodes):
        row, column = divmod(index, columns)
        node.x = MARGIN + column * (NODE_WIDTH + GAP_X)
        node.y = y + row * (NODE_HEIGHT + GAP_Y)
    rows = math.ceil(len(nodes) / columns) if nodes else 0
    return y + rows * (NODE_HEIGHT + GAP_Y) - (GAP_Y if rows else 0)


def _by_zone(cards: list[Node], data: CaseData) -> list[tuple[str, list[Node]]]:
    """The cards in bands, one a zone in the case's order (one band without a name in a
    one-zone case; cards whose zone is not one of the case's come last)."""
    if not data.is_zoned:
        return [("", cards)] if cards else []
    order = [zone.name for zone in data.zones]
    extra = sorted({card.zone for card in cards} - set(order))
    bands = []
    for name in order + extra:
        members = [card for card in cards if card.zone == name]
        if members:
            bands.append((name or "No zone", members))
    return bands


def _edge_path(source: Node, target: Node) -> str:
    """A gentle curve between the borders of two boxes (bowed, so that two arrows between
    the same cards, one each way, stay apart)."""
    (x1, y1), (x2, y2) = source.centre, target.centre
    start = _border_point(source, x2, y2)
    end = _border_point(target, x1, y1, inset=-4)  # room for the arrow head
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy) or 1
    bow = min(40.0, 0.12 * length)
    control = (
        (start[0] + end[0]) / 2 - dy / length * bow,
        (start[1] + end[1]) / 2 + dx / length * bow,
    )
    return (
        f"M{start[0]:.0f},{start[1]:.0f} Q{control[0]:.0f},{control[1]:.0f} "
        f"{end[0]:.0f},{end[1]:.0f}"
    )


def _border_point(node: Node, towards_x: float, towards_y: float, inset: float = 0):
    """Where the line from a box's centre towards a point leaves the box."""
    cx, cy = node.centre
    dx, dy = towards_x - cx, towards_y - cy
    if dx == 0 and dy == 0:
        return cx, cy
    half_w, half_h = NODE_WIDTH / 2 - inset, NODE_HEIGHT / 2 - inset
    scale = min(half_w / abs(dx) if dx else math.inf, half_h / abs(dy) if dy else math.inf)
    return cx + dx * scale, cy + dy * scale
