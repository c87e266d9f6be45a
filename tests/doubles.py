"""Scripted test doubles shared by the graph tests: roles that return the verdicts a test scripts, in order."""

from __future__ import annotations

from typing import Any, Sequence

from langchain_core.documents import Document

from ragkit.roles.protocols import Grade, Groundedness


class Script:
    """Hands out scripted values in order; once the script runs out it repeats ``then``."""

    def __init__(self, values: Sequence[Any] = (), then: Any = True) -> None:
        self.values, self.then, self.calls = list(values), then, 0

    def next(self) -> Any:
        self.calls += 1
        return self.values.pop(0) if self.values else self.then


class ScriptedGrader(Script):
    """A document grader: each document's relevance is the next scripted bool."""

    def grade(self, question: str, document: Document) -> Grade:
        relevant = self.next()
        return Grade(relevant, 1.0 if relevant else 0.0)

    def grade_many(self, question: str, documents: Sequence[Document]) -> list[Grade]:
        return [self.grade(question, d) for d in documents]


class ScriptedHallucinationGrader(Script):
    """A hallucination grader: each answer's groundedness is the next scripted bool."""

    def check(self, documents: Sequence[Document], answer: str) -> Groundedness:
        grounded = self.next()
        return Groundedness(grounded, () if grounded else (answer,), 1.0 if grounded else 0.0,
                            "" if grounded else "scripted: unsupported")
