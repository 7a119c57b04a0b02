"""The messages a client gets, as types: what ``serve``'s lines and the game server's WebSocket
carry, around the commands and events (which are their own dataclasses).

These types are the one definition of the protocol's shapes: the engine builds its messages
to them (mypy checks it) and the published JSON Schema is generated from them and from the
command and event classes (``tools.schema``). A change here is a change of the protocol: it
goes with a new ``PROTOCOL`` where a client could misread it, and always with the CHANGELOG.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired, TypeAlias, TypedDict

from msgspec import Meta

# The protocol's version, in the first message of serve and of every game server WebSocket:
# a client checks it before it reads anything else. 2: continuations as tagged maps, errors
# with code, field and an English message, a finished game's outcome. 3: a hosted game's dice
# are shared (DICE.SHARED): a seat commits to a chain, reveals a value a roll, and signs the
# heads it sees; a client of protocol 2 asks for ``dice=seeded`` when it makes a game.
PROTOCOL = 3


# fields that hold a part the schema defines once (tools.schema puts it under $defs)
Command: TypeAlias = Annotated[dict[str, Any], Meta(
    extra_json_schema={"$ref": "#/$defs/Command"},
    description="a command, as a client sends it (one of the commands)")]
Record: TypeAlias = Annotated[dict[str, Any], Meta(
    extra_json_schema={"$ref": "#/$defs/Record"},
    description="a record of the log, its event's data as the event's type has it")]
Event: TypeAlias = Annotated[dict[str, Any], Meta(
    extra_json_schema={"$ref": "#/$defs/Event"},
    description="an event: its type, version and data (and, tried, its sentence: text)")]
Pending: TypeAlias = Annotated[dict[str, Any], Meta(
    extra_json_schema={"$ref": "#/$defs/Pending"},
    description="what the game waits for: a decision, a roll, a measurement, or nothing")]
Head = Annotated[str, Meta(pattern="^[0-9a-f]{64}$",
                           description="the hash of the log's last record (a receipt)")]


class Receipt(TypedDict):
    """The game server's signature (Ed25519, ``key``) over ``regiment-receipt/1 GAME STEP
    HEAD``: proof of what the log held after a step (``regiment verify --receipt``). A seat's
    client keeps it with ``seats``: each seat's signature of that step, its own and the ones
    the server told it (shared dice), all checked by ``verify --receipts``."""

    game: str
    step: int
    head: Head
    key: str
    sig: str
    seats: NotRequired[dict[str, SeatSignature]]


class SeatSignature(TypedDict):
    """A seat's Ed25519 signature (``key``: its commitment's) of ``regiment-receipt/1 GAME
    STEP HEAD``: that seat's word that it was shown ``head`` at that step (shared dice)."""

    head: Head
    key: str
    sig: str


class Cosigned(SeatSignature):
    """A seat's newest signed head, as the game server keeps and tells it."""

    step: int


class Commitment(TypedDict):
    """A party's commitment to its hash chain of shared dice (DICE.COMMIT): the anchor
    ``x[0]``, the rounds it holds, its Ed25519 key, and its signature of ``regiment-dice/1
    commit GAME PARTY ANCHOR LENGTH`` (all hex)."""

    anchor: Head
    length: int
    key: str
    sig: str


class SharedView(TypedDict):
    """Shared dice, as a seat's client needs them: the seats whose commitments the server
    still waits for (a seat named here sends its ``commit``), and each seat's newest signed
    head."""

    commit: list[str]
    cosigned: dict[str, Cosigned]


class Error(TypedDict):
    """Why a request was refused (nothing changed). ``code`` is what a program branches on;
    ``field`` the request's field it concerns (a dotted path) or null for the request as a
    whole; ``message`` is English, ``translated`` the same in the game's language."""

    type: str
    code: str
    field: str | None
    message: str
    translated: str
    rule: NotRequired[str]
    phase: NotRequired[str]
    reason: NotRequired[dict[str, Any]]
    retry_after: NotRequired[float]


class _Undo(TypedDict):
    can_undo: bool
    can_redo: bool


class DecisionPending(_Undo):
    """A player's decision: exactly the commands open (``legal``), the pieces that could act
    and have nothing open (``idle``: why), and what a screen needs (``details``)."""

    kind: Literal["decision"]
    player: str
    decision: str
    legal: list[Command]
    idle: NotRequired[dict[str, str]]
    details: NotRequired[dict[str, Any]]


class Needs(TypedDict, total=False):
    """What a roll needs as numbers: each die at least ``each_at_least``; or the dice's total
    at most ``total_at_most`` (a double 1 passes too, where ``double_one_passes``) or at least
    ``total_at_least`` (of the highest two of three dice, where ``highest_two``)."""

    each_at_least: int
    total_at_most: int
    total_at_least: int
    double_one_passes: bool
    highest_two: bool


class RollPending(_Undo):
    """Dice to roll: ``dice`` D6 by ``player``; ``known``: faces an undone step already rolled
    (they come out again); ``round`` and ``parties``, where the dice are shared: the round whose
    reveals make the new faces, and who reveals (DICE.REVEAL); ``need``: what the roll needs, in
    words, and ``needs`` as numbers where the roll is a test of each die or of the total."""

    kind: Literal["roll"]
    player: str
    purpose: str
    unit: str | None
    dice: int
    known: NotRequired[list[int | None]]
    round: NotRequired[int]
    parties: NotRequired[list[str]]
    need: NotRequired[str | None]
    needs: NotRequired[Needs]


class MeasurementPending(_Undo):
    """Table mode: a measurement the players take and send with ``measure``; ``asks`` is the
    question in words."""

    kind: Literal["measurement"]
    player: str
    question: str
    measure: Literal["distance", "count", "number", "side", "yes_no", "unit", "units"]
    rule: str
    unit: str
    other: str
    most: float
    options: NotRequired[list[str]]
    extra: NotRequired[float]
    asks: NotRequired[str]


class Outcome(TypedDict):
    """GAME.END: who won (null: a draw), how (a code with its parameters), by which rule."""

    winner: str | None
    ending: dict[str, Any]
    rule: str
    points: NotRequired[dict[str, int]]


class OverPending(_Undo):
    kind: Literal["over"]
    winner: str | None
    reason: str
    outcome: Outcome


# (msgspec makes no schema of a union of TypedDicts: a union is named here, and tools.schema
# ties its members together under the name the fields refer to)
PENDINGS = (DecisionPending, RollPending, MeasurementPending, OverPending)


class _Answer(TypedDict):
    pending: Pending
    head: Head
    # the game server's: the game, its signed receipt of the head, the dice seed once it is over
    game_id: NotRequired[str]
    receipt: NotRequired[Receipt]
    seed: NotRequired[str | None]
    shared: NotRequired[SharedView]


class Opening(TypedDict):
    """The first message of serve and of a game server's WebSocket: the protocol's version,
    the game, the records so far (``seat``: the WebSocket's), and what it waits for."""

    protocol: int
    game_id: str
    events: list[Record]
    pending: Pending
    head: Head
    seat: NotRequired[str | None]
    receipt: NotRequired[Receipt]
    seed: NotRequired[str | None]
    shared: NotRequired[SharedView]


class Stepped(_Answer):
    """A command taken: the records it appended."""

    events: list[Record]


class Refused(TypedDict):
    """A request refused: why; nothing changed (the game server leaves out what it does not
    hold at hand: the pending decision, the head)."""

    error: Error
    game_id: NotRequired[str]
    pending: NotRequired[Pending]
    head: NotRequired[Head]
    receipt: NotRequired[Receipt]
    seed: NotRequired[str | None]
    shared: NotRequired[SharedView]


class CosignedTold(TypedDict):
    """The game server: a seat signed a head (shared dice); told to the game's other
    connections, for the receipts they keep."""

    cosigned: dict[str, Cosigned]
    game_id: str


class StateAnswer(_Answer):
    state: dict[str, Any]


class LegalAnswer(_Answer):
    """Every command legal now, and ``said``: each in words, in the game's language, in the
    same order (what a screen's buttons say)."""

    legal: list[Command]
    said: list[str]


class ContactsAnswer(_Answer):
    contacts: dict[str, Any]


class BoardAnswer(_Answer):
    board: dict[str, Any]


class Then(TypedDict):
    """What the game would wait for after a tried command (no die is rolled for a try)."""

    kind: Literal["decision", "roll", "measurement", "over"]
    player: NotRequired[str | None]
    decision: NotRequired[str | None]
    purpose: NotRequired[str]
    unit: NotRequired[str | None]
    dice: NotRequired[int]
    question: NotRequired[str]
    rule: NotRequired[str]
    winner: NotRequired[str | None]


class Tried(TypedDict):
    """What a command would do, nothing changed: its events (each with its sentence), the
    board after and what the game would wait for then; or the refusal."""

    events: NotRequired[list[Event]]
    board: NotRequired[dict[str, Any]]
    then: NotRequired[Then]
    refused: NotRequired[Error]


class Where(TypedDict):
    """A unit's front centre and facing, in the board's frame (docs/board.md)."""

    x: float
    y: float
    facing: float


class Nearest(TypedDict):
    path: list[list[Any]]
    end: Where
    used: float


class Refusal(TypedDict):
    message: str
    rule: str


class Reach(TypedDict):
    """MOVE.*: whether the move to the point is legal (its path, what it uses, where it ends),
    or why not and the legal end nearest to the point (absent: the unit cannot move)."""

    legal: bool
    path: NotRequired[list[list[Any]]]
    used: NotRequired[float]
    end: NotRequired[Where]
    refused: NotRequired[Refusal]
    nearest: NotRequired[Nearest]


class ReachAnswer(_Answer):
    reach: Reach


TryAnswer = TypedDict("TryAnswer", {"try": Tried, "pending": Pending, "head": Head,
                                     "game_id": NotRequired[str],
                                     "receipt": NotRequired[Receipt],
                                     "seed": NotRequired[str | None]})

class Told(TypedDict):
    """A record in words: the sentence the log's story tells for it (rules cited), if any."""

    seq: int
    step: int
    type: str
    text: str
    head: NotRequired[Head]   # the hash of its step's last record


class StoryAnswer(_Answer):
    """The story of the records from seq ``after`` on (0: all), in the game's language:
    what a page's log shows and a screen reader announces."""

    story: list[Told]


# Every message serve writes and a game server's WebSocket sends (a step taken by any seat
# comes to every connection as ``Stepped``).
MESSAGES = (Opening, Stepped, Refused, StateAnswer, LegalAnswer, ContactsAnswer, BoardAnswer,
            TryAnswer, ReachAnswer, StoryAnswer, CosignedTold)


class Request(TypedDict):
    """A query: it answers and changes nothing (``cmd``: the command a ``try`` tries; for
    ``reach``, the ``unit``, the point ``x``, ``y``, a ``facing`` if it matters and the
    ``kind`` of move, forward or march; for ``story``, ``after``: the seq after which to
    tell; ``lang``: the language of the words the answer tells, ``en`` or ``ru``, else the
    game's)."""

    query: Literal["state", "legal", "contacts", "board", "try", "reach", "story"]
    cmd: NotRequired[Command]
    unit: NotRequired[str]
    x: NotRequired[float]
    y: NotRequired[float]
    facing: NotRequired[float | None]
    kind: NotRequired[Literal["forward", "march"]]
    after: NotRequired[int]
    lang: NotRequired[Literal["en", "ru"]]


class Reveal(TypedDict):
    """A seat's value of its chain for round ``round`` (DICE.REVEAL)."""

    round: int
    value: Head


class SignedHead(TypedDict):
    """A seat's signature of the head it was shown at ``step`` (LOG.RECEIPT)."""

    step: int
    head: Head
    sig: str


class SeatMessage(TypedDict, total=False):
    """What a seat sends the game server for shared dice, besides commands: its
    ``commit`` when the server names it, its ``reveal`` when a roll waits for it, and
    ``signed``, the newest head it was shown, signed; ``signed`` may ride along with any
    message, a command's too, or go alone."""

    commit: Commitment
    reveal: Reveal
    signed: SignedHead
