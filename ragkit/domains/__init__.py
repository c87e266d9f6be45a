"""Everything that knows one corpus: its data loader, vocabularies, example tables and prompts.

``menu`` (the restaurant's menu and wine list), ``web`` (the offline web snapshot), ``handbook`` (the
RAG handbook), ``statute`` (the Coastal Waters Act), ``shop`` (the orders behind the tool loop). A generic
role receives what it needs from here as an argument; a new corpus is a new folder here.
"""
