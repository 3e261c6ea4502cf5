"""Privacy over HTTP on the local stack: canaries appear nowhere in clear; erasure and export.

Queue messages are consumed inside the stack's process; the functional tier
(tests/functional/test_privacy.py) reads every one of them. Here: every table, and everything
the stack printed (every function's logs)."""

from __future__ import annotations

import json

import requests

CANARIES = ("quokka-canary-73", "두루미카나리", "canary.visitor@example.net", "CANARY-TICKET-5150")


def test_twenty_turns_of_canaries_leave_no_plaintext_in_tables_or_logs(stack):
    user = "privacy-canary-user"
    minted = requests.post(f"{stack.url}/v1/tokens", json={"userId": user}, headers=stack.headers(user), timeout=10)
    widget = stack.bearer(minted.json()["token"])
    texts = ["My name is Quokka-canary-73 and I live in 두루미카나리", "My email is canary.visitor@example.net",
             "Ticket CANARY-TICKET-5150 is still open, quokka-canary-73 here", "I like quokka-canary-73 soup"]
    for i in range(20):
        headers, channel = (widget, "web") if i % 2 else (stack.headers(user), "api")
        r = stack.turn_with(headers, f"privacy-{i % 3}", f"{texts[i % 4]} ({i})", channel=channel)
        assert r.status_code == 200, r.text
    bad = requests.post(f"{stack.url}/v1/sessions/privacy-0/turns", headers=stack.headers(user), timeout=10,
                        data=json.dumps({"message": 7, "quokka-canary-73": True}))
    assert bad.status_code == 400
    scan = stack.settle(timeout=40)
    export = requests.get(f"{stack.url}/v1/me/export", headers=widget, timeout=10).json()
    assert "quokka-canary-73" in json.dumps(export).lower()  # its owner reads it back
    assert {f["key"] for f in export["facts"]} >= {"name", "home.location", "contact.email"}

    stored = json.dumps([{k: str(v) for k, v in i.items()} for items in scan.values() for i in items], ensure_ascii=False)
    printed = stack.output()
    assert "turn committed" in printed and '"message":"facts"' in printed  # the functions' logs are there
    for canary in CANARIES:
        assert canary.lower() not in stored.lower(), f"{canary} stored in clear"
        assert canary.lower() not in printed.lower(), f"{canary} in the logs"


def test_erasure_over_http(stack):
    user = "privacy-erase-user"
    for i in range(3):
        assert stack.turn(user, f"erase-{i}", "My name is Minji and I live in Busan").status_code == 200
    stack.settle()
    r = requests.delete(f"{stack.url}/v1/me", headers=stack.headers(user), timeout=30)
    assert r.status_code == 202 and r.json()["userId"] == user
    turn = stack.turn(user, "erase-0", "hello again")
    assert turn.status_code == 409 and turn.json()["error"]["code"] == "erasure_in_progress"
    export = requests.get(f"{stack.url}/v1/me/export", headers=stack.headers(user), timeout=10).json()
    assert export == {"userId": user, "profile": None, "profileRefreshedAt": None, "facts": [], "sessions": []}
    left = [i for i in stack.settled_scan() if i.get("PK", {}).get("S") in {f"SESSION#{user}#erase-{n}" for n in range(3)}]
    assert left == []


def test_forgetting_a_message_and_a_conversation_over_http(stack):
    """The stack's own facts and fold consumers learnt from the canary; forgetting reaches it.

    Each canary is told after every reply that stays: a reply in another conversation that
    repeated a fact stays that conversation's record (docs/forgetting.md, "Known limits"), and
    whether the local model's reply repeats one depends on how fast the facts job ran."""
    user = "privacy-forget-user"
    for session, text in (("kept", "My name is Minji and I live in Busan"), ("one", "order ZX-9 is late"),
                          ("one", "My email is wombat.canary@example.net"), ("moved", "I moved to Wombatfield"),
                          ("moved", "I like green tea")):
        assert stack.turn(user, session, text).status_code == 200
    stack.settle(timeout=40)
    facts = requests.get(f"{stack.url}/v1/me/facts", headers=stack.headers(user), timeout=10).json()["facts"]
    assert {f["key"] for f in facts} >= {"home.location", "contact.email", "preference.green_tea"}

    gone = requests.delete(f"{stack.url}/v1/sessions/one/messages/3", headers=stack.headers(user), timeout=30)
    assert gone.status_code == 204, gone.text
    assert [m["seq"] for m in stack.transcript(user, "one")] == [1, 2]
    gone = requests.delete(f"{stack.url}/v1/sessions/moved?facts=forget", headers=stack.headers(user), timeout=30)
    assert gone.status_code == 204, gone.text

    export = requests.get(f"{stack.url}/v1/me/export", headers=stack.headers(user), timeout=10).json()
    home = next(f for f in export["facts"] if f["key"] == "home.location")
    assert home["text"] == "Lives in Busan" and [s["sessionId"] for s in home["sources"]] == ["kept"]
    assert {f["key"] for f in export["facts"]} == {"name", "home.location"}
    stored = json.dumps([{k: str(v) for k, v in i.items()} for i in stack.settled_scan()]).lower()
    for canary in ("wombatfield", "wombat.canary@example.net"):
        assert canary not in json.dumps(export).lower() and canary not in stored
