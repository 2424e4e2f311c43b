"""Fights: a fight is a fold over its events."""

from jdr.fights.fold import Fight, fold, play

__all__ = ["Fight", "fold", "play"]
