"""The JSON contract (docs/protocol.md): encode views, decode actions and client messages.

The only Python code that knows wire field names. Imports the engine only.
"""

from ginrummy.protocol.chouette import (
    encode_chouette_info,
    encode_chouette_spectator_view,
    encode_player_view,
    encode_settlement,
    encode_view_text,
)
from ginrummy.protocol.codec import (
    MAX_FRAME_BYTES,
    ProtocolError,
    decode_action,
    encode_match_result,
    encode_own_view,
    encode_public_view,
    encode_round_result,
    encode_rules,
    encode_seat_view,
    encode_spectator_view,
    encode_view_frame,
    joined_view,
    with_json,
)
from ginrummy.protocol.messages import ClientMessage, Frame, decode_client_message
from ginrummy.protocol.wire import WireError, parse_json, to_json

__all__ = [
    "MAX_FRAME_BYTES",
    "ClientMessage",
    "Frame",
    "ProtocolError",
    "WireError",
    "decode_action",
    "decode_client_message",
    "encode_chouette_info",
    "encode_chouette_spectator_view",
    "encode_match_result",
    "encode_own_view",
    "encode_player_view",
    "encode_public_view",
    "encode_round_result",
    "encode_rules",
    "encode_seat_view",
    "encode_settlement",
    "encode_spectator_view",
    "encode_view_frame",
    "encode_view_text",
    "joined_view",
    "parse_json",
    "to_json",
    "with_json",
]
