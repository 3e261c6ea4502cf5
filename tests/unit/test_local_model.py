from convmem.adapters.local_model import LocalModel
from convmem.domain.models import ContextMessage, ModelRequest


def req(history, current):
    return ModelRequest(system="s", history=[ContextMessage(role=r, text=t) for r, t in history], current=current)


def test_it_recalls_the_earlier_message_that_matches_the_question():
    history = [("visitor", "My order number is A-77"), ("agent", "ok"), ("visitor", "I like tea"), ("agent", "ok")]
    assert "A-77" in LocalModel().reply(req(history, "What did I say about my order?")).text


def test_it_is_deterministic_and_reports_what_it_saw():
    r = req([("visitor", "hi"), ("agent", "hello")], "How are you")
    assert LocalModel().reply(r).text == LocalModel().reply(r).text
    assert "2 earlier messages" in LocalModel().reply(r).text


def test_it_recalls_from_the_summary_once_the_message_left_the_window():
    r = ModelRequest(system="s", summary='[m1-2] visitor: "My order number is QX-55120." agent: "Noted."\n[m3-4] visitor: "nice weather" agent: "yes"',
                     history=[ContextMessage(role="visitor", text="tell me about shipping")], current="What did I say about my order?")
    assert "QX-55120" in LocalModel().reply(r).text


def test_it_recalls_from_this_turns_overflow_block():
    r = ModelRequest(system="s", overflow='Earlier in this conversation, messages 1-4, in short: visitor: "My email is a@b.co" agent: "ok"',
                     history=[], current="Do you remember my email?")
    assert "a@b.co" in LocalModel().reply(r).text


def test_asked_for_a_number_it_quotes_an_entry_squeezed_to_identifiers():
    r = ModelRequest(system="s", summary='[m1-24] ids: "QX-55120, $89.50"\n[m25-26] visitor: "Question 12: delivery?" agent: "ok"',
                     history=[ContextMessage(role="visitor", text="Question 39: packaging?")],
                     current="What did I say about my order number?")
    assert "QX-55120" in LocalModel().reply(r).text
