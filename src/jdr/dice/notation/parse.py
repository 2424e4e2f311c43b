"""Text → `Expression`: the lark grammar (`grammar.lark`), then the parse tree → immutable terms.

Before the grammar, the line is taken apart as a chat user types it: a leading `/roll`, `/r`,
`!roll` or `!r` is dropped, rolls are split at `;` or `,` (outside brackets), and each roll's label
is what follows `#`, or the words after the expression (`1d20+5 Attaque`: the longest start that
parses, up to a space before a letter). Other tools' spellings become jdr's terms here (`k3` is
`kh3`, `e10` on a d10 and `!!` are `!`, `t7` / `cs>=7` / `c[>=7]` are `>=7`, `adv` is `2d20kh1`);
a bare `>7` or `f<2`, read strictly, leaves a note (`notes.py`).

A lark exception never escapes: a malformed expression becomes an `InputError` that says where it
went wrong, how jdr writes the form when it is another tool's (`hints.py`), and what the notation
looks like.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from functools import cache
from importlib import resources
from typing import Literal, cast

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from jdr.dice.notation.hints import hint_for
from jdr.dice.notation.limits import MAX_DICE, check, check_length
from jdr.dice.notation.tree import (
    Comparison,
    Constant,
    DiceTerm,
    Expression,
    KeepDrop,
    KeepMode,
    Operator,
    Scaled,
    Step,
    Term,
    scale,
)
from jdr.errors import InputError
from jdr.i18n import _

__all__ = ["grammar_summary", "parse", "parse_rolls"]


def grammar_summary() -> str:
    """What the notation looks like, in one line (the `allowed` of a parse error)."""
    return _(
        "NdX[!][kh|kl|dh|dl N][>=T[fT]][rN], dF, a number or (…), joined with + - * /,"
        " e.g. 4d10>=6f1 (README: every form)"
    )


@cache
def _parser() -> Lark:
    text = resources.files("jdr.dice.notation").joinpath("grammar.lark").read_text("utf-8")
    cached = _cache_file(text)
    mask = os.umask(0o077)  # the cache file Lark writes: its owner's only
    try:
        return Lark(text, parser="lalr", maybe_placeholders=True, cache=cached or False)
    finally:
        os.umask(mask)


def _cache_file(grammar: str) -> str | None:
    """Where Lark keeps the parser it builds from the grammar (30 ms at every command that reads
    dice notation, 3 ms to load): a file named by the grammar's and Lark's hash in the user's
    own cache folder, created readable by its owner only (a parser is loaded with pickle, so
    never from a shared folder such as /tmp); None when that folder cannot be written."""
    import hashlib
    from pathlib import Path

    import lark
    import platformdirs

    folder = Path(platformdirs.user_cache_dir("jdr", appauthor=False))
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        if folder.stat().st_uid != os.getuid() or not os.access(folder, os.W_OK):
            return None
    except (OSError, AttributeError):  # a read-only home; no getuid outside POSIX
        return None
    digest = hashlib.sha256(f"{lark.__version__}\n{grammar}".encode()).hexdigest()[:16]
    return str(folder / f"notation-{digest}.lark")


def parse(text: str) -> Expression:
    """Read a dice expression; refuse it if malformed or over a limit (before any roll).

    >>> expression = parse("4D6 kh3 + 2")
    >>> expression.text
    '4d6kh3+2'
    >>> expression.terms[0].keep
    KeepDrop(mode='kh', count=3)
    >>> parse("/roll 8d10k3 Attaque").text
    '8d10kh3 #Attaque'
    >>> parse("4d6kh")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    jdr.errors.InputError: expression: '4d6kh' (unexpected end of the expression; allowed: ...)
    """
    rolls = parse_rolls(text)
    if len(rolls) != 1:
        raise InputError(
            "expression",
            text,
            _("one roll here"),
            _("several rolls separated by ; or ,"),
        )
    return rolls[0]


def parse_rolls(text: str) -> tuple[Expression, ...]:
    """Read one roll or several separated by `;` or `,` (`2d6 ; 1d20`), each with its label.

    A leading `/roll`, `/r`, `!roll` or `!r` (as typed to a chat bot) is ignored.

    >>> [roll.text for roll in parse_rolls("/r 2d6 ; 1d20+5 #Attaque, 1d8+1d6[feu]")]
    ['2d6', '1d20+5 #Attaque', '1d8+1d6[feu]']
    """
    check_length(text)
    prefix = _PREFIX.match(text)
    start = prefix.end() if prefix else 0
    if not text[start:].strip():
        raise InputError("expression", text, grammar_summary(), _("the expression is empty"))
    rolls = []
    for offset, piece in _pieces(text, start):
        if not piece.strip():
            raise InputError(
                "expression", text, grammar_summary(), _("an empty roll between ; or ,")
            )
        rolls.append(_roll(piece, offset, text))
    total = sum(roll.dice_count for roll in rolls)
    if len(rolls) > 1 and total > MAX_DICE:
        check(Expression(tuple(t for roll in rolls for t in roll.terms)))
    return tuple(rolls)


_PREFIX = re.compile(r"\s*[/!](?:roll|r)(?![a-z0-9])\s*", re.IGNORECASE)


def _pieces(text: str, start: int) -> list[tuple[int, str]]:
    """`(offset, piece)` for each roll between `;` or `,` outside brackets."""
    if ";" not in text and "," not in text:
        return [(start, text[start:])]
    pieces = []
    depth = 0
    begin = start
    for index in range(start, len(text)):
        char = text[index]
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(depth - 1, 0)
        elif char in ";," and depth == 0:
            pieces.append((begin, text[begin:index]))
            begin = index + 1
    pieces.append((begin, text[begin:]))
    return pieces


def _roll(piece: str, offset: int, text: str) -> Expression:
    """One roll: its expression, then its label (`#Attaque`, or trailing words)."""
    body, _sep, label = piece.partition("#")
    if _sep and not label.strip():
        raise InputError("expression", text, _("#label, e.g. 1d20+5#Attaque"), _("an empty label"))
    try:
        tree = _parser().parse(body)
    except UnexpectedInput as error:
        found = _trailing_words(body, error)
        if found is None:
            raise InputError(
                "expression", text, grammar_summary(), _why(error, body, offset)
            ) from None
        tree, words = found
        label = f"{words} {label}"
    except LarkError:  # pragma: no cover - any other lark failure is still the user's input
        raise InputError("expression", text, grammar_summary()) from None
    expression = _expression(tree, " ".join(label.split()))
    check(expression)
    return expression


def _trailing_words(body: str, error: UnexpectedInput) -> tuple[Tree[Token], str] | None:
    """`1d20+5 Attaque`: the expression before the words that follow it, and those words.

    The words start after a space, with a letter, at or before where the parse failed."""
    where = getattr(error, "pos_in_stream", None)
    if where is None:
        where = len(body)
    for index in range(min(where, len(body) - 1), 0, -1):
        if body[index].isalpha() and body[index - 1].isspace() and body[:index].strip():
            try:
                return _parser().parse(body[:index]), body[index:].strip()
            except UnexpectedInput:
                continue
    return None


def _why(error: UnexpectedInput, body: str, offset: int) -> str:
    """Where the parse failed, and how jdr writes the form when it knows it (`hints.py`)."""
    where = _where(error, offset)
    hint = hint_for(body)
    return where if hint is None else _("{where}: {hint}").format(where=where, hint=hint)


def _where(error: UnexpectedInput, offset: int = 0) -> str:
    if isinstance(error, UnexpectedCharacters):
        return _("unexpected '{char}' at column {column}").format(
            char=error.char, column=error.column + offset
        )
    if isinstance(error, UnexpectedToken) and error.token.type != "$END":
        value = str(error.token.value)
        return _("unexpected '{char}' at column {column}").format(
            char=value[:1] if error.token.type == "LABEL" else value,
            column=(error.token.column or 0) + offset,
        )
    return _("unexpected end of the expression")


def _expression(tree: Tree[Token], label: str) -> Expression:
    notes: list[str] = []
    terms = _sum(cast(Tree[Token], tree.children[0]), notes)
    return Expression(terms, label, tuple(notes))


def _sum(tree: Tree[Token], notes: list[str]) -> tuple[Term, ...]:
    children = tree.children
    signs = [children[0], *children[2::2]]
    terms = children[1::2]
    return tuple(
        _product(cast(Tree[Token], term), -1 if sign == "-" else 1, notes)
        for sign, term in zip(signs, terms, strict=True)
    )


def _product(tree: Tree[Token], sign: int, notes: list[str]) -> Term:
    """`atom (* or / atom)*`: one side of every step must be a whole number."""
    children = tree.children
    term = _atom(cast(Tree[Token], children[0]), notes)
    steps: list[Step] = []
    for operator, atom in zip(children[1::2], children[2::2], strict=True):
        other = _atom(cast(Tree[Token], atom), notes)
        if isinstance(other, Constant):
            if str(operator) == "/" and other.value == 0:
                raise InputError(
                    "expression", "/0", _("a whole number of 1 or more"), _("division by zero")
                )
            steps.append((cast(Literal["*", "/"], str(operator)), other.value))
        elif str(operator) == "*" and isinstance(term, Constant) and not steps:
            steps.append(("*", term.value))
            term = other
        else:
            raise InputError(
                "expression",
                str(operator),
                _("* or / by a whole number, e.g. (1d6+2)*2 or 1d20/2"),
                _("jdr multiplies and divides by whole numbers only, not by dice"),
            )
    if not steps:
        return term if sign == 1 else replace(term, sign=sign)
    inner = term.inner if isinstance(term, Scaled) and not term.steps else Expression((term,))
    if isinstance(term, Scaled) and term.steps:
        inner, steps = term.inner, [*term.steps, *steps]
    if all(isinstance(t, Constant) for t in inner.terms):  # fold `5/2` into a number
        value = scale(sum(t.sign * cast(Constant, t).value for t in inner.terms), tuple(steps))
        return Constant(abs(value), sign * (-1 if value < 0 else 1))
    return Scaled(inner, tuple(steps), sign)


def _atom(tree: Tree[Token], notes: list[str]) -> Term:
    if tree.data == "constant":
        return Constant(int(cast(Token, tree.children[0])))
    if tree.data == "group":
        inner = Expression(_sum(cast(Tree[Token], tree.children[0]), notes))
        if len(inner.terms) == 1 and inner.terms[0].sign > 0:
            return inner.terms[0]
        return Scaled(inner, ())
    return _dice(tree, notes)


def _dice(tree: Tree[Token], notes: list[str]) -> DiceTerm:
    count_token, size_tree, *modifiers = tree.children
    size_token = cast(Token, cast(Tree[Token], size_tree).children[0])
    fate = size_token.type == "FATE"
    size = 100 if size_token.type == "PERCENT" else 3 if fate else int(size_token)
    count = 1 if count_token is None else int(cast(Token, count_token))
    fields: dict[str, object] = {}
    seen: set[str] = set()
    for modifier in modifiers:
        modifier = cast(Tree[Token], modifier)
        kind = str(modifier.data)
        if kind in seen:
            raise InputError(
                "expression",
                _modifier_text(kind),
                _("each modifier at most once in a dice term"),
                _("a dice term has this modifier twice"),
            )
        seen.add(kind)
        found = _modifier(kind, modifier, size, fate)
        notes.extend(cast(list[str], found.pop("_notes", [])))
        fields.update(found)
    if "advantage" in seen:
        if count != 1 or "keep" in seen:
            raise InputError(
                "expression",
                f"{count}d{'F' if fate else size}",
                _("adv or dis after one die, e.g. 1d20adv (that is 2d20kh1)"),
                _("advantage rolls one die twice"),
            )
        count = 2
    if "failure" in fields and "success" not in fields:
        raise InputError(
            "expression",
            "f",
            _("a failure after a success target, e.g. 4d10>=6f1"),
            _("a failure needs a success target"),
        )
    if fields.get("explode") and (fate or "reroll" in fields):
        raise InputError(
            "expression",
            "!",
            _("explode, or reroll, a numbered die: 3d6! or 3d6r1"),
            _("a Fate die does not explode") if fate else _("a die either explodes or rerolls"),
        )
    separate = fields.pop("_separate", False)
    term = DiceTerm(count=count, size=size, fate=fate, **fields)  # type: ignore[arg-type]
    if separate and (term.keep is not None or term.success is not None):
        notes.append(f"!{term.text}")
    return term


def _modifier_text(kind: str) -> str:
    return {
        "explode": "!",
        "keep": "k",
        "success": ">=",
        "failure": "f",
        "reroll": "r",
        "advantage": "adv",
        "label": "[…]",
    }[kind]


def _modifier(kind: str, tree: Tree[Token], size: int, fate: bool) -> dict[str, object]:
    children = tree.children
    if kind == "explode":
        marker, face = [*children, None][:2]
        if face is not None and int(cast(Token, face)) != size:
            raise InputError(
                "expression",
                f"{marker}{face}",
                _(
                    "e or e{size} on a d{size}: it explodes on its highest face, like 1d{size}!"
                ).format(size=size),
                _("jdr explodes a die on its highest face only"),
            )
        return {"explode": True, "_separate": str(marker) != "!!"}
    if kind == "keep":
        mode, number = children
        text = str(mode).lower()
        mode_text = cast(KeepMode, "kh" if text == "k" else text)
        return {"keep": KeepDrop(mode_text, int(cast(Token, number)))}
    if kind == "success":
        tokens = [cast(Token, c) for c in children if c is not None]
        value = int(tokens[-1])
        if tokens[0].type == "TARGET":
            return {"success": Comparison(">=", value)}
        operator = next(t for t in tokens if t.type == "COMPARISON")
        comparison = _comparison(operator, value)
        notes = [comparison.text] if tokens[0].type == "COMPARISON" and "=" not in operator else []
        if tokens[0].type == "COUNT_S":
            notes.append(f"cs{comparison.text}")
        return {"success": comparison, "_notes": notes}
    if kind == "failure":
        failed, number = children
        comparison = _comparison("=" if failed is None else failed, number)
        notes = [f"f{comparison.text}"] if comparison.operator in ("<", ">") else []
        return {"failure": comparison, "_notes": notes}
    if kind == "reroll":
        marker, again, number = children
        return {
            "reroll": _comparison("=" if again is None else again, number),
            "reroll_once": str(marker).lower() == "ro",
        }
    if kind == "advantage":
        highest = str(children[0]).lower() == "adv"
        return {"keep": KeepDrop("kh" if highest else "kl", 1)}
    label = str(children[0]).strip()
    return {"label": label}


def _comparison(operator: object, value: object) -> Comparison:
    return Comparison(cast(Operator, str(operator)), int(cast(Token, value)))
