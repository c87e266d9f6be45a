"""The LLM reply to small talk: a chat model answers a greeting, thanks or "who are you?" in a sentence or two.

The prompt (:data:`SMALL_TALK_PROMPT`, generic; a domain passes its own) asks for a short friendly reply with no
factual claims. A failed call or an empty reply gets the ``fallback``'s reply instead (a canned one, such as
:class:`ragkit.offline.small_talk.LocalSmallTalk`'s), so a message always gets an answer.

Whether a message is small talk is decided before, by an intent classifier
(:class:`ragkit.roles.llm_queries.LLMIntentClassifier` or :class:`ragkit.offline.small_talk.LocalIntentClassifier`).

Simplifications: plain text, not structured output (there is nothing to parse); no memory of the conversation;
nothing checks that the reply really makes no claim.
"""

from __future__ import annotations

from collections.abc import Callable

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from ragkit.roles.llm import message_text

# ---------------------------------------------------------------- small talk
SMALL_TALK_PROMPT = ("You are a document question-answering assistant. The user is making small talk. Reply in one "
                     "or two short, friendly sentences, make no factual claims, and invite a question about the documents.")


class LLMSmallTalk:
    """A one- or two-sentence reply by the chat model, following ``prompt``; a failed call or an empty reply
    gets ``fallback``'s reply instead.

    >>> from ragkit.core.chat_models import scripted
    >>> LLMSmallTalk(scripted("Hi! What shall we look up?"), "Reply briefly.", fallback=lambda q: "Hello!").reply("hey")
    'Hi! What shall we look up?'
    """

    def __init__(self, model: BaseChatModel, prompt: str, fallback: Callable[[str], str]):
        self.model, self.prompt, self.fallback = model, prompt, fallback

    def reply(self, question: str) -> str:
        try:
            text = message_text(self.model.invoke([SystemMessage(self.prompt), HumanMessage(question)])).strip()
        except Exception:  # noqa: BLE001 - a failed call still gets a polite reply
            text = ""
        return text or self.fallback(question)


__all__ = ["LLMSmallTalk", "SMALL_TALK_PROMPT"]
