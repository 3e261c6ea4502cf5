"""A Strands agent that remembers, with convmem as its memory: `python examples/strands_agent.py`.

Needs `pip install ./clients/python[strands]` (make test installs it), a convmem API (`make run` prints
its URL and API key) named by CONVMEM_URL, CONVMEM_API_KEY and CONVMEM_USER_ID, and a model: Strands'
default is Amazon Bedrock (AWS credentials); pass any Strands model to build_agent instead.
"""
from convmem_client import ConvmemClient
from convmem_client.strands import ConvmemMemory
from strands import Agent, tool


@tool
def order_status(order_id: str) -> str:
    """Where an order is now."""
    return f"Order {order_id} left the warehouse this morning."  # tool traffic stays inside the agent


def build_agent(model=None, session_id: str = "support") -> Agent:
    memory = ConvmemMemory(ConvmemClient.from_env(), session_id=session_id)
    return Agent(model=model, tools=[order_status], hooks=[memory], system_prompt="You are a shop's assistant.")


if __name__ == "__main__":
    agent = build_agent()
    while message := input("you> ").strip():
        print("agent>", agent(message))
