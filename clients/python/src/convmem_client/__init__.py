"""convmem_client: a typed, synchronous client of the convmem conversation-memory API.

    from convmem_client import ConvmemClient
    with ConvmemClient("http://127.0.0.1:3000", api_key=KEY, user_id="alice") as memory:
        memory.exchange("support", visitor="My order is 1234", agent="Thanks, looking it up.")

Integrations (extras): ``convmem_client.strands`` (``pip install convmem-client[strands]``) and
``convmem_client.mcp_server`` (``[mcp]``, the ``convmem-mcp`` command).
"""

from convmem_client.client import ConvmemClient
from convmem_client.errors import (
    AuthenticationError,
    BadRequestError,
    ConflictError,
    ConvmemConnectionError,
    ConvmemError,
    NotFoundError,
    PayloadTooLargeError,
    PermissionDeniedError,
    RateLimitedError,
    ServerError,
    UnavailableError,
)
from convmem_client.models import (
    Context,
    ContextReport,
    ConverseContext,
    Erasure,
    Exchange,
    Export,
    Fact,
    HistoryMessage,
    IssuedToken,
    KnowledgeSnippet,
    Message,
    Profile,
    RecalledFact,
    SessionDetail,
    SessionExport,
    SessionItem,
    SessionPage,
    Transcript,
    TurnResult,
)

__all__ = [
    "AuthenticationError", "BadRequestError", "ConflictError", "Context", "ContextReport", "ConverseContext",
    "ConvmemClient", "ConvmemConnectionError", "ConvmemError", "Erasure", "Exchange", "Export", "Fact",
    "HistoryMessage", "IssuedToken", "KnowledgeSnippet", "Message", "NotFoundError", "PayloadTooLargeError",
    "PermissionDeniedError", "Profile", "RateLimitedError", "RecalledFact", "ServerError", "SessionDetail",
    "SessionExport", "SessionItem", "SessionPage", "Transcript", "TurnResult", "UnavailableError",
]
