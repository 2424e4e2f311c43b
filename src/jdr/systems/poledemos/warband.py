"""A warband: its figures, each with a name and a VAL (PD-1), and its leaders' groups (PD-8).

VAL is written `3+` or `3` wherever a user gives one (a sheet, `--val`, `--group`, `--figures`);
`Val` and `Vals` are those fields for pydantic models, with the project's messages.

Where the rules are silent, a warband file reads them so:

- `followers` lists the figures that may join a leader's group; PD-8's 10 cm is the table's call.
  Only a figure with `leader = true` has followers; a leader may follow another leader.
- A figure follows at most one leader, unless the file sets `shared_followers = true` (a table
  that forms groups on the fly, as the source's "dynamiquement" allows).
- Names are compared ignoring case, accents and repeated spaces: two figures may not share one,
  and a follower may be written `caporal` for `Caporal` (it is stored as the figure spells it).
- Any VAL from 1+ to 6+ is accepted (the source's fighters are 2+ … 5+; civilians need not be).

>>> band = load_example()
>>> [(figure.name, figure.val) for figure in band.followers_of("sergent perry")]
[('Caporal', 4), ('Recrue 1', 5), ('Recrue 2', 5)]
>>> parse_vals("4+,5,5+")
[4, 5, 5]
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from jdr.errors import InputError, UnknownNameError
from jdr.i18n import N_, _
from jdr.names import fold as name_key
from jdr.sheets import SheetError, load_model
from jdr.systems.poledemos.rules import parse_val
from jdr.validation import fail, translate

__all__ = [
    "EXAMPLES",
    "MAX_FIGURES",
    "Figure",
    "Val",
    "Vals",
    "Warband",
    "WarbandError",
    "example_path",
    "load_example",
    "load_warband",
    "parse_vals",
]

MAX_FIGURES = 100
"""A skirmish warband: far more figures than a table fields, far fewer than a slow check."""
EXAMPLES = ("warband",)
VAL_ALLOWED = "1+ … 6+"

# Each error a validator raises: (reason, allowed) in English, formatted with the error's context.
_MESSAGES: dict[str, tuple[str, str]] = {
    "val_type": (N_("a VAL is written 3 or 3+"), VAL_ALLOWED),
    "empty_member": (
        N_("an empty member: two commas in a row, or a comma at an end"),
        N_("VAL separated by commas, e.g. 4+,5,5+"),
    ),
    "val_list": (N_("not a list of VAL"), N_("VAL separated by commas, e.g. 4+,5,5+")),
    "blank": (N_("empty"), N_("a name")),
    "duplicate_name": (N_("the same name as figure {first}"), N_("a name of its own")),
    "followers_not_leader": (
        N_("only a leader has followers: set leader = true"),
        N_("leader = true, or no followers"),
    ),
    "unknown_follower": (N_("no figure has this name"), "{known}"),
    "follows_itself": (N_("a leader does not follow itself"), N_("another figure's name")),
    "follower_twice": (N_("listed twice among the followers"), N_("each follower once")),
    "two_leaders": (
        N_("already follows {other}: a figure follows one leader"),
        N_("one leader per figure, or shared_followers = true"),
    ),
}


def _fail(kind: str, **context: Any) -> PydanticCustomError:
    return fail(kind, *_MESSAGES[kind], **context)


# --- VAL as a field ---------------------------------------------------------------------------


def _val(value: Any) -> int:
    """A model's VAL: `parse_val`'s rule and message, as a pydantic error."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise _fail("val_type", value=str(value))
    try:
        return parse_val(value)
    except InputError as error:  # already in the current language: shown as it is
        raise fail("val", error.reason or "", error.allowed, value=value) from None


def _members(value: Any) -> list[Any]:
    """`"4+,5"` or `["4+,5", "6"]` (a repeated option) → `["4+", "5", "6"]`; `[]` stays empty."""
    if isinstance(value, str):
        return value.split(",") if value.strip() else []
    if isinstance(value, list | tuple):
        return [part for item in value for part in _split(item)]
    if isinstance(value, int) and not isinstance(value, bool):
        return [value]
    raise _fail("val_list", value=str(value))


def _split(item: Any) -> list[Any]:
    return item.split(",") if isinstance(item, str) else [item]


def _vals(value: Any) -> list[int]:
    members = _members(value)
    vals = []
    for index, member in enumerate(members):
        if isinstance(member, str) and not member.strip():
            text = ",".join(str(m) for m in members)
            raise _fail("empty_member", value=text, at=index)
        try:
            vals.append(_val(member))
        except PydanticCustomError as error:
            raise fail(error.type, *_reason(error), value=member, at=index) from None
    return vals


def _reason(error: PydanticCustomError) -> tuple[str, str]:
    context = error.context or {}
    return str(context.get("reason", "")), str(context.get("allowed", ""))


Val = Annotated[int, BeforeValidator(_val)]
"""A VAL field: `3+`, `3` or 3 → 3; anything else is refused with PD-1's message."""
Vals = Annotated[list[int], BeforeValidator(_vals)]
"""VAL separated by commas (`4+,5,5+`), or a list of them; an empty member is refused."""


def parse_vals(value: str | Sequence[str | int], field: str = "group") -> list[int]:
    """VAL separated by commas → their values; the first bad member is an `InputError`.

    >>> parse_vals(["4+", 5])
    [4, 5]
    >>> parse_vals("4,,5")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    jdr.errors.InputError: group[2]: '4,,5' (an empty member: two commas in a row, ...)
    """
    try:
        return _ValList.model_validate({"vals": value}).vals
    except ValidationError as error:
        raise translate(error, _ValList, name=lambda _part: field).problems[0] from None


class _ValList(BaseModel):
    vals: Vals


# --- the warband ------------------------------------------------------------------------------


def _name(value: str) -> str:
    if not value.strip():
        raise _fail("blank", value=value)
    return " ".join(value.split())


Name = Annotated[str, AfterValidator(_name)]


class Figure(BaseModel):
    """One figure: its name, its VAL (PD-1), whether it leads, and who may follow it (PD-8)."""

    model_config = ConfigDict(extra="forbid")

    name: Name = Field(description=N_("the figure's name, unique in the warband"))
    val: Val = Field(description=N_("the figure's VAL, 1+ … 6+ (lower is better)"))
    leader: bool = Field(default=False, description=N_("a leader may take a group along"))
    followers: list[Name] = Field(
        default_factory=list, description=N_("the figures that may join this leader's group")
    )


class Warband(BaseModel):
    """A player's figures in activation order, with their leaders' groups.

    >>> band = Warband(figures=[Figure(name="Chef", val="2+", leader=True, followers=["a"]),
    ...                         Figure(name="A", val=4)])
    >>> band.vals(), band.figures[0].followers
    ([2, 4], ['A'])
    """

    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="", description=N_("the warband's name"))
    shared_followers: bool = Field(
        default=False, description=N_("a figure may follow more than one leader")
    )
    figures: list[Figure] = Field(min_length=1, max_length=MAX_FIGURES)

    @model_validator(mode="after")
    def _names_and_groups(self) -> Warband:
        index: dict[str, int] = {}
        for position, figure in enumerate(self.figures, 1):
            key = name_key(figure.name)
            if key in index:
                at = f"figures[{position}].name"
                raise _fail("duplicate_name", value=figure.name, first=index[key], at=at)
            index[key] = position
        leader_of: dict[str, str] = {}
        for position, figure in enumerate(list(self.figures), 1):
            followers = self._followers(figure, f"figures[{position}].followers", index)
            self.figures[position - 1] = figure.model_copy(update={"followers": followers})
            for rank, follower in enumerate(followers, 1):
                other = leader_of.setdefault(follower, figure.name)
                if other != figure.name and not self.shared_followers:
                    at = f"figures[{position}].followers[{rank}]"
                    raise _fail("two_leaders", value=follower, other=other, at=at)
        return self

    def _followers(self, leader: Figure, at: str, index: dict[str, int]) -> list[str]:
        """The leader's followers as their figures spell them; a non-leader has none."""
        if leader.followers and not leader.leader:
            raise _fail("followers_not_leader", value=leader.name, at=at)
        followers = [
            self._follower(leader, follower, f"{at}[{rank}]", index)
            for rank, follower in enumerate(leader.followers, 1)
        ]
        for rank, follower in enumerate(followers, 1):
            if follower in followers[: rank - 1]:
                raise _fail("follower_twice", value=follower, at=f"{at}[{rank}]")
        return followers

    def _follower(self, leader: Figure, follower: str, at: str, index: dict[str, int]) -> str:
        """The follower's name as its figure spells it; unknown names and the leader refused."""
        key = name_key(follower)
        if key not in index:
            known = ", ".join(figure.name for figure in self.figures)
            raise _fail("unknown_follower", value=follower, known=known, at=at)
        if key == name_key(leader.name):
            raise _fail("follows_itself", value=follower, at=at)
        return self.figures[index[key] - 1].name

    def figure(self, name: str) -> Figure:
        """The figure called `name` (case and accents ignored).

        >>> load_example().figure("CAPORAL").val
        4
        """
        for figure in self.figures:
            if name_key(figure.name) == name_key(name):
                return figure
        raise UnknownNameError(_("figure"), name, [figure.name for figure in self.figures])

    def leaders(self) -> list[Figure]:
        """The figures that may lead a group, in the file's order."""
        return [figure for figure in self.figures if figure.leader]

    def followers_of(self, leader: str) -> list[Figure]:
        """The figures that may join `leader`'s group (PD-8), in its list's order."""
        return [self.figure(name) for name in self.figure(leader).followers]

    def vals(self) -> list[int]:
        """Every figure's VAL in the file's order: what `hand --figures` takes."""
        return [figure.val for figure in self.figures]


# --- reading files ----------------------------------------------------------------------------


class WarbandError(SheetError):
    """Every problem of a warband file at once; the first one is this error's field and value."""

    code = "invalid_sheet"


def load_warband(source: str | Path) -> Warband:
    """A warband from a TOML file (a `Path`, or a `str` without `=`) or from TOML text.

    >>> try:
    ...     load_warband('[[figures]]\\nname = "Perry"\\nval = "9+"')
    ... except WarbandError as error:
    ...     print(error.message())
    figures[1].val: 9+ — a d6 test needs a VAL from 1+ to 6+ (allowed: 1+ … 6+)
    """
    return load_model(Warband, source, N_("warband"), error=WarbandError)


def example_path(name: str = "warband") -> Traversable:
    """The example warband shipped with the package.

    >>> example_path().name
    'warband.toml'
    """
    if name not in EXAMPLES:
        raise UnknownNameError(_("example"), name, list(EXAMPLES))
    return resources.files("jdr.systems.poledemos").joinpath("examples").joinpath(f"{name}.toml")


def load_example(name: str = "warband") -> Warband:
    """The example warband, loaded and validated.

    >>> load_example().name
    'Section Perry'
    """
    return load_warband(example_path(name).read_text(encoding="utf-8"))
