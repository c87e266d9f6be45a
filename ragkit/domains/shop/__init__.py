"""The shop domain: the orders table, its four order tools and the prompt of the tool loop (see :mod:`ragkit.domains`).

What a caller passes to the tool loop: the store (``orders.load_order_store()``), the tools' specs
(``tools.ORDER_TOOL_SPECS``) and, for a chat model planner, the shop's prompt (``tools.SYSTEM_PROMPT``).

>>> from ragkit.domains.shop.orders import load_order_store
>>> from ragkit.domains.shop.tools import ORDER_TOOL_SPECS
>>> from ragkit.graphs.tool_agent import build_tool_agent_graph
>>> graph = build_tool_agent_graph(load_order_store(), ORDER_TOOL_SPECS)
>>> config = {"configurable": {"thread_id": "doc"}}
>>> graph.invoke({"messages": [("user", "Track A1002 please")]}, config)["messages"][-1].content
'Order A1002 is on its way with DHL, tracking number DHL-4821337790, expected 2025-03-10.'
"""
