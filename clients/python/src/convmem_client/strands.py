"""convmem as the memory of a Strands agent: a HookProvider (``pip install convmem-client[strands]``).

    agent = Agent(model=..., tools=[...], hooks=[ConvmemMemory(client, session_id="support")])
    agent("Where is my order?")

For each visitor message (an ``Agent(...)`` call) the hook asks convmem for the request it would
send (``POST .../context?format=converse``) and puts it in the agent before the model is called:
convmem's system blocks (profile, facts, summary, overflow, knowledge, all quoted as data) after
the agent's own system prompt, and convmem's history (already fitted to the budget) as the
agent's messages. Every model call of that invocation, those after tool calls included, sees it.
When the agent has answered, the hook stores exactly two rows (``POST .../exchanges``): the
visitor's text and the agent's final text. Tool calls, tool results and reasoning stay inside
the agent; nothing carries them to convmem.

Why a hook provider, not a SessionManager: a Strands session manager persists and restores the
agent's whole message list (every tool use and tool result with it) and owns the agent's state;
convmem instead *assembles* the request from what was said, so the agent's own list is rebuilt
from convmem for every message and only the visible exchange is stored. (Strands' MemoryStore
plugin injects search hits into a prompt the agent still assembles itself; convmem's context is
the whole request, budgeted, which a hook can hand over as is.)
"""

from __future__ import annotations

import copy
import logging
import uuid
from typing import Any

from strands.hooks import AfterInvocationEvent, BeforeInvocationEvent, HookProvider, HookRegistry

from convmem_client.client import ConvmemClient, Knowledge

logger = logging.getLogger(__name__)


class ConvmemMemory(HookProvider):
    """Memory for one Strands agent in one convmem session (one instance per agent).

    ``client`` acts as the user (``ConvmemClient(url, api_key=..., user_id=...)`` or a visitor
    token); ``session_id`` names the conversation; ``channel`` is stored with each exchange;
    ``knowledge`` snippets (API key only) are budgeted into every request.

    Errors from convmem (``ConvmemError``, after the client's retries) propagate out of the agent
    call: a message too large for the budget (413) stops it before the model is called; a failure
    to store the exchange is raised after the answer (``last_reply`` still holds it) so that a
    conversation is never silently forgotten.
    """

    def __init__(self, client: ConvmemClient, session_id: str, *, channel: str | None = None,
                 knowledge: Knowledge | None = None) -> None:
        self.client = client
        self.session_id = session_id
        self.channel = channel
        self.knowledge = list(knowledge) if knowledge is not None else None
        self._pending: tuple[str, str] | None = None  # (visitor text, clientTurnId) of the invocation under way
        self._own_prompt: Any = None
        self.last_reply: str | None = None

    def register_hooks(self, registry: HookRegistry, **_kwargs: Any) -> None:
        registry.add_callback(BeforeInvocationEvent, self.before_invocation)
        registry.add_callback(AfterInvocationEvent, self.after_invocation)

    def before_invocation(self, event: BeforeInvocationEvent) -> None:
        prompt = _visitor_prompt(event.messages)
        if prompt is None:
            return  # a resumed invocation (tool results, interrupt answers): keep this message's context
        visitor_text, attachments = prompt
        context = self.client.context(self.session_id, visitor_text, knowledge=self.knowledge, format="converse")
        agent = event.agent
        if self._pending is None:
            self._own_prompt = copy.deepcopy(agent._system_prompt_content)  # restored when the exchange is stored
        own: list[Any] = list(self._own_prompt or [])
        agent.system_prompt = [*own, *context.system]
        messages = copy.deepcopy(context.messages)
        # convmem's last message is the visitor's current one (merged with a trailing visitor
        # message of the history, so roles alternate as Converse requires): it replaces the prompt,
        # keeping what convmem does not store (an image, a document) beside the text.
        current = messages.pop() if messages and messages[-1].get("role") == "user" else None
        agent.messages.clear()
        agent.messages.extend(messages)
        if current is not None:
            current["content"] = [*current.get("content", []), *attachments]
            event.messages = [current]
        self._pending = (visitor_text, uuid.uuid4().hex)

    def after_invocation(self, event: AfterInvocationEvent) -> None:
        if self._pending is None:
            return
        result = event.result
        if result is not None and result.stop_reason == "interrupt":
            return  # waiting for a person's answer: the exchange is stored when the invocation completes
        visitor_text, client_turn_id = self._pending
        self._pending = None
        event.agent.system_prompt = self._own_prompt
        if result is None:
            return  # the invocation failed: no answer was given, nothing to remember
        reply = _text(result.message)
        self.last_reply = reply
        if not reply.strip():
            logger.warning("convmem: the agent's answer had no text; the exchange was not stored")
            return
        # The same clientTurnId on every retry: stored once even when an answer was lost on the way.
        self.client.exchange(self.session_id, visitor=visitor_text, agent=reply, channel=self.channel,
                             client_turn_id=client_turn_id)


def _visitor_prompt(messages: Any) -> tuple[str, list[Any]] | None:
    """The visitor's words, and any other blocks (images, documents: not stored), when the
    invocation's input is one new user message with text; None for a resumed invocation."""
    if not messages or len(messages) != 1 or messages[0].get("role") != "user":
        return None
    blocks = messages[0].get("content") or []
    if any("toolResult" in b or "interruptResponse" in b for b in blocks):
        return None
    text = "\n".join(b["text"] for b in blocks if "text" in b)
    if not text.strip():
        logger.warning("convmem: a message without text gets no memory and is not stored")
        return None
    return text, [b for b in blocks if "text" not in b]


def _text(message: Any) -> str:
    """The text a person sees in an assistant message (tool-use and reasoning blocks left out)."""
    return "\n".join(b["text"] for b in (message or {}).get("content", []) if isinstance(b, dict) and "text" in b).strip()
