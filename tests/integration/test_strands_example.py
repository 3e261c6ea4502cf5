"""examples/strands_agent.py as a user runs it: its agent, given a model, remembers across agents."""

from __future__ import annotations

import ast
import importlib.util
import uuid
from pathlib import Path

import pytest

from tests.scripted_strands_model import Say, ScriptedModel

pytestmark = pytest.mark.integration

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "strands_agent.py"


def test_the_example_is_under_20_lines_of_code():
    tree = ast.parse(EXAMPLE.read_text())
    doc = ast.get_docstring(tree) or ""
    code = [line for line in EXAMPLE.read_text().replace(f'"""{doc}"""', "", 1).splitlines()
            if line.strip() and not line.strip().startswith("#") and not line.strip().startswith('"""')]
    assert len(code) < 20, code


def test_the_example_agent_remembers_what_an_earlier_agent_was_told(stack, monkeypatch):
    monkeypatch.setenv("CONVMEM_URL", stack.url)
    monkeypatch.setenv("CONVMEM_API_KEY", stack.api_key)
    monkeypatch.setenv("CONVMEM_USER_ID", f"example-{uuid.uuid4().hex[:8]}")
    spec = importlib.util.spec_from_file_location("strands_agent_example", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)

    first = ScriptedModel(lambda messages: Say("Noted, Minji."))
    example.build_agent(first, session_id="s1")("My name is Minji and my order is 4242")

    # A new process, a new agent object: only convmem can carry the conversation over.
    later = ScriptedModel(lambda messages: Say("Checking."))
    example.build_agent(later, session_id="s1")("what was my order number?")
    sent = later.requests[0]
    assert [m["content"][0]["text"] for m in sent.messages] == [
        "My name is Minji and my order is 4242", "Noted, Minji.", "what was my order number?"]
    assert sent.system_text.startswith("You are a shop's assistant.")
