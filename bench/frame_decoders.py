"""Client frames decoded three ways, µs a frame (bench/RESULTS.md, "Client frames decoded").

A realistic mix: what a table's sockets send in a game (moves, pings, hellos, chat, tips;
``VALID``), and the malformed frames the abuse bench and the fuzzer send (``INVALID``),
about one frame in five invalid. Each decoder must give every frame the error code the
protocol gives it (docs/protocol.md, "Error codes"); a decoder that does not is reported
(the script then exits 1). Each frame is timed alone, the best of many small batches
(the least disturbed by other work on the machine); the mix is the mean over its frames.

- ``hand-written``: the decoder the protocol had until msgspec (the standard library's
  ``json`` with strict hooks, then a table of field types checked by hand), kept here
  only to be measured;
- ``msgspec``: ``ginrummy.protocol.messages.decode_frame`` as it is now (msgspec
  structs; a refused frame is read again by the strict reader to name its code);
- ``pydantic``: the same frames as pydantic v2 models (strict, extra fields forbidden, a
  discriminated union on ``type``), refusals named the same way. pydantic is not a
  dependency of ginrummy; to measure it, install it beside:

      .venv/bin/python -m pip install --target /tmp/benchdeps pydantic
      PYTHONPATH=src:/tmp/benchdeps .venv/bin/python bench/frame_decoders.py

Without pydantic importable the script measures the other two.
"""

from __future__ import annotations

import contextlib
import sys
import timeit
from collections.abc import Callable
from typing import Annotated, Any, Literal

from ginrummy.protocol import ProtocolError, WireError, parse_json
from ginrummy.protocol.messages import FRAMES, decode_frame

REPEATS = 300
BATCH = 20  # decodes of one frame timed together

VALID = [
    '{"type":"act","version":41,"action":"draw stock"}',
    '{"type":"act","version":42,"action":"discard Qs"}',
    '{"type":"act","version":43,"action":"knock 7h"}',
    '{"type":"ping","t":1733312345678}',
    '{"type":"ping","t":"m17"}',
    '{"type":"hello","room":"k3j9x2ab","token":"tok_0123456789abcdef0123456789","version":40}',
    '{"type":"hello_lobby","token":null,"lobby":true}',
    '{"type":"chat","text":"gut gespielt! \\ud83d\\ude00"}',
    '{"type":"next_round","version":44}',
    '{"type":"tips","on":true}',
    '{"type":"resync"}',
    '{"type":"advice","version":9,"action":"discard 7h"}',
]
INVALID = [
    ('{"type":"ping","t":NaN}', "bad_number"),
    ('{"type":"act","version":9007199254740992,"action":"pass"}', "bad_number"),
    ('{"type":"chat","text":"hi \\ud800"}', "bad_text"),
    ("[" * 40 + "]" * 40, "bad_json"),
    ('{"type":"act","version":1,"action":"pass"', "bad_json"),
    ('{"type":"dance"}', "unknown_type"),
    ('{"type":"act","version":true,"action":"pass"}', "bad_message"),
    ('{"type":"hello","room":"ab","colour":"red"}', "bad_message"),
    ('{"type":"tips"}', "bad_message"),
    ("[1,2]", "bad_message"),
]
MIX: list[tuple[str, str | None]] = [*((frame, None) for frame in VALID * 3), *INVALID]

Decoder = Callable[[str], object]


# --- hand-written (the protocol's decoder before msgspec) ---------------------------------

_SCHEMAS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {
        "room": ((str,), True),
        "token": ((str, type(None)), False),
        "version": ((int,), False),
    },
    "act": {"version": ((int,), True), "action": ((str,), True)},
    "next_round": {"version": ((int,), False)},
    "new_match": {"version": ((int,), False)},
    "resync": {},
    "tip": {},
    "tips": {"on": ((bool,), True)},
    "ping": {"t": ((int, float, str), False)},
    "hello_lobby": {
        "token": ((str, type(None)), False),
        "tournament": ((str, type(None)), False),
        "lobby": ((bool,), False),
    },
    "chat": {"text": ((str,), False), "phrase": ((str,), False)},
    "claim": {},
    "resign": {},
    "seed": {"seed": ((str,), True), "commitment": ((str,), False)},
    "advice": {"version": ((int,), True), "action": ((str,), False), "card": ((str,), False)},
    "ask_advice": {"version": ((int,), True)},
    "team_chat": {"text": ((str,), False), "phrase": ((str,), False)},
    "next_match": {"version": ((int,), False)},
}


def hand_written(raw: str) -> object:
    try:
        data = parse_json(raw)
    except WireError as exc:
        raise ProtocolError(exc.code, str(exc)) from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _SCHEMAS:
        raise ProtocolError("unknown_type", f"unknown message type {kind!r}")
    schema = _SCHEMAS[kind]
    extra = sorted(set(data) - set(schema) - {"type"})
    if extra:
        raise ProtocolError("bad_message", f"{kind}: unknown field(s) {', '.join(extra)}")
    fields: dict[str, Any] = {}
    for name, (types, required) in schema.items():
        if name not in data:
            if required:
                raise ProtocolError("bad_message", f"{kind}: missing field {name!r}")
            continue
        value = data[name]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ProtocolError("bad_message", f"{kind}: field {name!r} has the wrong type")
        fields[name] = value
    return kind, fields


# --- pydantic (not a dependency: measured only if importable) -----------------------------


def pydantic_decoder() -> Decoder | None:
    try:
        import pydantic
    except ImportError:
        return None
    from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

    safe = Annotated[int, Field(ge=-(2**53 - 1), le=2**53 - 1)]

    class Model(BaseModel):
        model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    def model(kind: str, **fields: Any) -> type[BaseModel]:
        annotations: dict[str, Any] = {"type": (Literal[kind], ...)}  # type: ignore[valid-type]
        annotations.update(fields)
        made: type[BaseModel] = pydantic.create_model(f"M_{kind}", __base__=Model, **annotations)
        return made

    optional_int = (safe | None, None)
    optional_text = (str | None, None)
    models = [
        model("hello", room=(str, ...), token=optional_text, version=optional_int),
        model("act", version=(safe, ...), action=(str, ...)),
        model("next_round", version=optional_int),
        model("new_match", version=optional_int),
        model("resync"),
        model("tip"),
        model("tips", on=(bool, ...)),
        model("ping", t=(safe | float | str | None, None)),
        model("hello_lobby", token=optional_text, tournament=optional_text, lobby=(bool, True)),
        model("chat", text=optional_text, phrase=optional_text),
        model("claim"),
        model("resign"),
        model("seed", seed=(str, ...), commitment=optional_text),
        model("advice", version=(safe, ...), action=optional_text, card=optional_text),
        model("ask_advice", version=(safe, ...)),
        model("team_chat", text=optional_text, phrase=optional_text),
        model("next_match", version=optional_int),
    ]
    union = Annotated[_union(models), Field(discriminator="type")]
    adapter: TypeAdapter[Any] = TypeAdapter(union)
    by_kind = {kind: TypeAdapter(m) for kind, m in zip(_SCHEMAS, models, strict=True)}

    def decode(raw: str) -> object:
        try:
            return adapter.validate_json(raw)
        except pydantic.ValidationError:
            pass
        # Refused: name the code as the protocol does (the strict reader, then the type).
        try:
            data = parse_json(raw)
        except WireError as exc:
            raise ProtocolError(exc.code, str(exc)) from None
        if not isinstance(data, dict):
            raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in by_kind:
            raise ProtocolError("unknown_type", f"unknown message type {kind!r}")
        try:
            return by_kind[kind].validate_python(data)
        except pydantic.ValidationError as exc:
            raise ProtocolError("bad_message", f"{kind}: {exc}") from None

    return decode


def _union(models: list[Any]) -> Any:
    union = models[0]
    for m in models[1:]:
        union = union | m
    return union


# --- the measurement ---------------------------------------------------------------------


def code_of(decode: Decoder, raw: str) -> str | None:
    try:
        decode(raw)
    except ProtocolError as exc:
        return exc.code
    return None


def check(name: str, decode: Decoder) -> list[str]:
    """The frames ``decode`` answers otherwise than the protocol does."""
    wrong = []
    for raw, want in [*((v, None) for v in VALID), *INVALID]:
        got = code_of(decode, raw)
        if got != want:
            wrong.append(f"{name}: {raw[:50]!r} gave {got}, not {want}")
    return wrong


def per_frame_us(decode: Decoder, raw: str) -> float:
    """The least time of ``REPEATS`` batches of ``BATCH`` decodes of one frame: a
    machine busy with other work stretches some batches, never shortens one."""

    def batch() -> None:
        for _ in range(BATCH):
            with contextlib.suppress(ProtocolError):
                decode(raw)

    return min(timeit.repeat(batch, number=1, repeat=REPEATS)) / BATCH * 1e6


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def main() -> int:
    decoders: dict[str, Decoder] = {
        "hand-written": hand_written,
        "msgspec": decode_frame,
    }
    pyd = pydantic_decoder()
    if pyd is None:
        print("pydantic is not importable: measuring the other two (see the docstring)")
    else:
        decoders["pydantic"] = pyd
    assert set(_SCHEMAS) == set(FRAMES), "the hand-written table and the structs differ"
    problems = [p for name, d in decoders.items() for p in check(name, d)]
    for problem in problems:
        print(problem)
    valid = sum(want is None for _, want in MIX)
    print(
        f"a mix of {len(MIX)} frames, {valid} valid and {len(MIX) - valid} invalid; each frame "
        f"timed alone, best of {REPEATS} batches of {BATCH}; µs a frame (mean over the mix)"
    )
    print(f"{'decoder':<14}{'mix':>8}{'valid':>8}{'invalid':>9}")
    for name, decode in decoders.items():
        times = [(per_frame_us(decode, raw), want is None) for raw, want in MIX]
        row = [
            sum(t for t, _ in times) / len(times),
            _mean([t for t, ok in times if ok]),
            _mean([t for t, ok in times if not ok]),
        ]
        print(f"{name:<14}" + "".join(f"{v:>8.2f}" for v in row[:2]) + f"{row[2]:>9.2f}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
