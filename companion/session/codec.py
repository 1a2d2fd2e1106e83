"""Dataclasses to JSON and back, driven by their type hints.

Session state is a tree of dataclasses (the trackers, the log, each game's own state). Saving a
snapshot of it, and loading it again, must not need hand-written code per game: this codec walks
the type hints. It handles dataclasses, list, tuple, dict (str or int keys), Optional/unions with
None, Enum, and the JSON scalars. ``Any`` passes through unchanged, and so do the fields a dataclass names in
``__codec_raw__`` (data that is JSON already, such as the log's entries, kept as it is for speed).
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import cache
from typing import Any, Union, get_args, get_origin

_SCALARS = (str, int, float, bool, type(None))


def dump(obj: Any) -> Any:
    """A JSON-ready copy of ``obj``."""
    if isinstance(obj, _SCALARS):
        return obj
    if isinstance(obj, enum.Enum):
        return obj.value
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        raw = getattr(obj, "__codec_raw__", ())
        return {
            f.name: (getattr(obj, f.name) if f.name in raw else dump(getattr(obj, f.name))) for f in _fields(type(obj))
        }
    if isinstance(obj, (list, tuple)):
        return [dump(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): dump(v) for k, v in obj.items()}
    raise TypeError(f"cannot save a {type(obj).__name__}")


@cache
def _fields(cls: type) -> tuple[dataclasses.Field, ...]:
    return tuple(f for f in dataclasses.fields(cls) if f.init)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def load(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from what :func:`dump` made."""
    if tp is Any or tp is object:
        return data
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return load(arg, data)
            except (TypeError, ValueError, KeyError):
                continue
        raise TypeError(f"{data!r} fits none of {tp}")
    if origin in (list, typing.List):  # noqa: UP006
        (arg,) = get_args(tp) or (Any,)
        return [load(arg, v) for v in _seq(data)]
    if origin in (tuple, typing.Tuple):  # noqa: UP006
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(load(args[0], v) for v in _seq(data))
        if not args:
            return tuple(_seq(data))
        return tuple(load(a, v) for a, v in zip(args, _seq(data), strict=True))
    if origin in (dict, typing.Dict):  # noqa: UP006
        kt, vt = get_args(tp) or (str, Any)
        if not isinstance(data, dict):
            raise TypeError(f"expected an object, got {type(data).__name__}")
        return {(int(k) if kt is int else k): load(vt, v) for k, v in data.items()}
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise ValueError(f"{data!r} is not one of {get_args(tp)}")
        return data
    if isinstance(tp, type):
        if dataclasses.is_dataclass(tp):
            if not isinstance(data, dict):
                raise TypeError(f"expected an object for {tp.__name__}, got {type(data).__name__}")
            hints = _hints(tp)
            raw = getattr(tp, "__codec_raw__", ())
            kwargs = {
                f.name: (data[f.name] if f.name in raw else load(hints[f.name], data[f.name]))
                for f in _fields(tp)
                if f.name in data
            }
            return tp(**kwargs)
        if issubclass(tp, enum.Enum):
            return tp(data)
        if tp is float and isinstance(data, int) and not isinstance(data, bool):
            return float(data)
        if tp in _SCALARS:
            if not isinstance(data, tp) or (tp is int and isinstance(data, bool)):
                raise TypeError(f"expected {tp.__name__}, got {type(data).__name__}")
            return data
    raise TypeError(f"cannot load {tp!r}")


def _seq(data: Any) -> list[Any]:
    if not isinstance(data, list):
        raise TypeError(f"expected a list, got {type(data).__name__}")
    return data
