"""Random sources: where faces come from.

One small interface, `faces(size, count)`, uniform on 1..size. Rules never call `random` themselves:
they are handed a source, so a test or a replay can fix every face.

>>> GivenFaces([7, 1, 2, 6]).faces(10, 4)
[7, 1, 2, 6]
>>> Seeded(42).faces(6, 3) == Seeded(42).faces(6, 3)
True

A d10 whose 10 is printed "0" still counts 10 (PK-2: « parfois, un 0 remplace le 10, mais il
compte toujours pour 10 »): a given 0 on a d10, and only on a d10, is read as 10.

>>> GivenFaces([0, 3]).faces(10, 2)
[10, 3]
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from jdr.errors import FacesError, InputError
from jdr.i18n import N_, _, ngettext


@runtime_checkable
class RandomSource(Protocol):
    """Anything that can roll `count` dice of `size` faces, each uniform on 1..size."""

    def faces(self, size: int, count: int) -> list[int]: ...


class SystemRandom:
    """The operating system's randomness (`secrets`): the default source."""

    def faces(self, size: int, count: int) -> list[int]:
        return [secrets.randbelow(size) + 1 for _ in range(count)]

    def __repr__(self) -> str:
        return "SystemRandom()"


class Seeded:
    """A reproducible source: the same seed gives the same faces, for tests and replays."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def faces(self, size: int, count: int) -> list[int]:
        # `randrange(size) + 1` draws exactly what `randint(1, size)` draws, with less work.
        draw = self._random.randrange
        return [draw(size) + 1 for _ in range(count)]

    def __repr__(self) -> str:
        return f"Seeded({self.seed})"


ZERO_DIE = 10
"""PK-2: the die whose 10 is sometimes printed "0"."""


def read_face(face: int, size: int) -> int:
    """A face as typed in, read on a die of `size` faces: a d10's 0 counts 10 (PK-2).

    >>> read_face(0, 10), read_face(7, 10), read_face(0, 6)
    (10, 7, 0)
    """
    return ZERO_DIE if face == 0 and size == ZERO_DIE else face


class GivenFaces:
    """Faces the player already rolled (real dice, a forum's roller), consumed in order.

    Each face is checked against the die asked for; `finish()` refuses faces left over.

    >>> source = GivenFaces([3, 9])
    >>> source.faces(6, 1)
    [3]
    >>> source.faces(6, 1)
    Traceback (most recent call last):
    ...
    jdr.errors.FacesError: faces: 9 (face 2 is 9, not a face of a d6; allowed: 1..6)
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self.given = tuple(faces)
        self.used = 0

    def faces(self, size: int, count: int) -> list[int]:
        left = len(self.given) - self.used
        if count > left:
            raise FacesError(
                "faces",
                ",".join(map(str, self.given)) or "-",
                ngettext("{needed} face in all", "{needed} faces in all", self.used + count).format(
                    needed=self.used + count
                ),
                ngettext(
                    "{given} face given, the roll needs more",
                    "{given} faces given, the roll needs more",
                    len(self.given),
                ).format(given=len(self.given)),
            )
        taken = [read_face(face, size) for face in self.given[self.used : self.used + count]]
        for offset, face in enumerate(taken):
            if not 1 <= face <= size:
                position = self.used + offset + 1
                raise FacesError(
                    "faces",
                    face,
                    _("1..10, or 0 for 10") if size == ZERO_DIE else f"1..{size}",
                    _("face {position} is {face}, not a face of a d{size}").format(
                        position=position, face=face, size=size
                    ),
                )
        self.used += count
        return taken

    def finish(self) -> None:
        """Refuse faces that the roll did not use (a miscount the player should see)."""
        if self.used != len(self.given):
            raise FacesError(
                "faces",
                ",".join(map(str, self.given)),
                ngettext("{used} face", "{used} faces", self.used).format(used=self.used),
                ngettext(
                    "{given} face given, the roll used only {used}",
                    "{given} faces given, the roll used only {used}",
                    len(self.given),
                ).format(given=len(self.given), used=self.used),
            )

    def __repr__(self) -> str:
        return f"GivenFaces({list(self.given)!r})"


class Recording:
    """Wraps a source and remembers every face it gave, in roll order (the JSON `faces`), and
    whose die each one was when it was rolled for someone else (`rolled_for`).

    >>> recording = Recording(GivenFaces([3, 5, 2]))
    >>> recording.faces(6, 1) + rolled_for(recording, "Chu").faces(6, 2)
    [3, 5, 2]
    >>> recording.sizes, recording.owners
    ([6, 6, 6], [None, 'Chu', 'Chu'])
    """

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner
        self.rolled: list[int] = []
        self.sizes: list[int] = []
        self.owners: list[str | None] = []

    def faces(self, size: int, count: int) -> list[int]:
        return self.faces_for(None, size, count)

    def faces_for(self, owner: str | None, size: int, count: int) -> list[int]:
        """`faces`, remembered as `owner`'s dice (None: the one who acts)."""
        got = self.inner.faces(size, count)
        self.rolled.extend(got)
        self.sizes.extend([size] * len(got))
        self.owners.extend([owner] * len(got))
        return got


class RolledFor:
    """`inner`'s dice, rolled for `owner`: see `rolled_for`."""

    def __init__(self, inner: RandomSource, owner: str) -> None:
        self.inner = inner
        self.owner = owner

    def faces(self, size: int, count: int) -> list[int]:
        recording = self.inner
        while isinstance(recording, RolledFor):
            recording = recording.inner
        if isinstance(recording, Recording):
            return recording.faces_for(self.owner, size, count)
        return recording.faces(size, count)

    def __repr__(self) -> str:
        return f"rolled_for({self.inner!r}, {self.owner!r})"


def rolled_for(rng: RandomSource, owner: str) -> RandomSource:
    """The same dice as `rng`, rolled for `owner`: a defender's reaction inside an attack, each
    duelist's cast. A journal records them as `owner`'s (its entry's `dice.by`) and the luck
    audit counts them for `owner`, not for the one whose command rolled them; any other source
    just rolls them.

    >>> rolled_for(GivenFaces([4]), "Chu").faces(6, 1)
    [4]
    """
    return RolledFor(rng, owner)


_SEPARATOR = re.compile(r"\s*[,;]\s*|\s+")
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
MAX_FACE_DIGITS = 30
"""Digits of one given face: more is no die's face, and Python refuses past 4,300."""
FACES_ALLOWED = N_("whole numbers separated by commas, e.g. 7,1,2,6")


def parse_faces(text: str) -> list[int]:
    """`"7,1,2,6"` → `[7, 1, 2, 6]`; spaces allowed; anything else is refused clearly.

    Faces are separated by one comma (or semicolon), spaces around it allowed, or by spaces
    alone. An empty face (`1,,3`, a comma at either end) is refused: a face was forgotten, and
    reading the rest would shift every face after it. Only ASCII digits count: `int()` alone
    would read `"1_0"` as 10 and `"٣"` as 3.

    >>> parse_faces("7, 1 2;6")
    [7, 1, 2, 6]
    >>> parse_faces("1,,3")
    Traceback (most recent call last):
    ...
    jdr.errors.FacesError: faces: '1,,3' (nothing between two commas, after face 1; allowed: ...)
    """
    parts = _SEPARATOR.split(text.strip())
    if not any(parts):
        raise FacesError("faces", text, _(FACES_ALLOWED))
    for index, part in enumerate(parts):
        if not part:
            raise FacesError("faces", text, _(FACES_ALLOWED), _empty_face(index, len(parts)))
        if not _WHOLE_NUMBER.fullmatch(part):
            raise FacesError(
                "faces",
                text,
                _(FACES_ALLOWED),
                _("{part} is not a whole number").format(part=part),
            )
        if len(part.lstrip("+-")) > MAX_FACE_DIGITS:
            raise FacesError(
                "faces",
                text,
                _(FACES_ALLOWED),
                _("face {n} has {digits} digits (at most {most})").format(
                    n=index + 1, digits=len(part.lstrip("+-")), most=MAX_FACE_DIGITS
                ),
            )
    return [int(part) for part in parts]


def _empty_face(index: int, count: int) -> str:
    """Why the face at `index` (0-based) of `count` parts is empty, in the reader's words."""
    if index == 0:
        return _("nothing before the first comma")
    if index == count - 1:
        return _("nothing after the last comma")
    return _("nothing between two commas, after face {position}").format(position=index)


def make_source(faces: str | None = None, seed: int | str | None = None) -> RandomSource:
    """The source the common options ask for: `--faces`, `--seed`, else the system's randomness.

    >>> make_source(seed="42")
    Seeded(42)
    """
    if faces is not None and seed is not None:
        raise FacesError("--faces", faces, _("either --faces or --seed, not both"))
    if faces is not None:
        return GivenFaces(parse_faces(faces))
    if seed is not None:
        return Seeded(parse_seed(seed))
    return SystemRandom()


def parse_seed(seed: int | str) -> int:
    """A seed is a whole number, written as the user likes (`42`, ` 42 `)."""
    if isinstance(seed, int):
        return seed
    try:
        return int(seed.strip())
    except ValueError:
        raise InputError("--seed", seed, _("whole number"), _("not a whole number")) from None
