from convmem.adapters.local_model import LocalModel
from convmem.domain.models import ContextMessage, ModelRequest


def req(history, current):
    return ModelRequest(system="s", history=[ContextMessage(role=r, text=t) for r, t in history], current=current)


def test_it_recalls_the_earlier_message_that_matches_the_question():
    history = [("visitor", "My order number is A-77"), ("agent", "ok"), ("visitor", "I like tea"), ("agent", "ok")]
    assert "A-77" in LocalModel().reply(req(history, "What did I say about my order?"))


def test_it_is_deterministic_and_reports_what_it_saw():
    r = req([("visitor", "hi"), ("agent", "hello")], "How are you")
    assert LocalModel().reply(r) == LocalModel().reply(r)
    assert "2 earlier messages" in LocalModel().reply(r)
