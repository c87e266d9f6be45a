"""The coder role: the Python the code agent will run for a request, and what it does.

The code agent (``ragkit.graphs.supervisor_nodes``) asks a coder for a :class:`CodeDraft` and runs its
code only through ``ragkit.sandbox.run_python``; the coder itself never runs anything.

- ``LLMCoder``: the chat model writes a short standard-library program for the request (structured
  output: ``code`` and ``explanation``), using what the earlier agents found.
- ``LocalCoder``: honestly limited, it writes no new code. It uses code it is given or finds, in this
  order: a fenced block or inline `` `code` `` in the question; a Python expression or call written in the
  question ("What is 0.75 * 384 + 12?", "Run print(sorted(d))"); a code block in the documents the rag
  agent found (the block whose document shares most terms with the question); a code block in an earlier
  agent's answer. It explains the code from its syntax tree (:func:`describe_code`: what it imports,
  defines and prints). With nothing to use it says so, and what to ask instead.

>>> LocalCoder().draft("What is 0.75 * 384 + 12? Please compute it.").code
'print(0.75 * 384 + 12)'
>>> describe_code("import math\\ndef f(x):\\n    return x\\nprint(f(2))")
'It imports math, defines f(x), and prints 1 value.'

What the local coder cannot do: turn words into code ("2 to the power of 20", "simulate 500 rounds"),
pick between two blocks that share no words with the question, or know whether the found code answers
the request. The sandbox has the standard library only, so found code that imports numpy or faiss runs and
fails with ``ModuleNotFoundError``, and the agent reports that.
"""

from __future__ import annotations

import ast
import builtins
import math
import re
from dataclasses import dataclass
from typing import Literal, Protocol, Sequence, runtime_checkable

from langchain_core.documents import Document
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.prompts import ChatPromptTemplate
from pydantic import BaseModel, Field

from ragkit.core.nlp import clean_query, tokenize
from ragkit.roles.llm import call_structured
from ragkit.roles.llm import format_documents
from ragkit.roles.supervisor_types import AgentAnswer, format_findings

CodeOrigin = Literal["model", "question", "documents", "answers", "none"]
_FENCED = re.compile(r"```[ \t]*(?:python|py|python3)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_INLINE = re.compile(r"`([^`\n]+)`")
MAX_SCAN_WORDS = 80  # questions longer than this are not scanned for a written-out expression
NO_CODE = ("The offline code agent writes no new code: it runs code it is given or finds. I found no Python in "
           "your question or in what the earlier agents found. Put the code in backticks or a ``` block, ask for "
           "a handbook example first, or pass chat_model= to have code written for you.")


@dataclass(frozen=True)
class CodeDraft:
    """Code to run ("" when there is none), what it does, and where it came from."""

    code: str
    explanation: str
    origin: CodeOrigin = "none"
    source: str = ""  # e.g. the document id a block came from
    fallback: bool = False


@runtime_checkable
class Coder(Protocol):
    def draft(self, question: str, findings: Sequence[AgentAnswer] = (),
              documents: Sequence[Document] = ()) -> CodeDraft: ...


def code_blocks(text: str) -> list[str]:
    """The fenced code blocks of a text, stripped.

    >>> code_blocks("See:\\n```python\\nprint(1)\\n```\\nand\\n```\\nx = 2\\n```")
    ['print(1)', 'x = 2']
    """
    return [block.strip() for block in _FENCED.findall(text) if block.strip()]


def _parses(code: str) -> ast.Module | None:
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError):
        return None


def _is_computation(tree: ast.AST) -> bool:
    return any(isinstance(node, (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare)) for node in ast.walk(tree))


def expression_in(question: str) -> str | None:
    """The longest run of words in the question that parses as a Python computation using only numbers,
    builtins and ``math`` names, turned into a program that prints it; None when there is none.

    >>> expression_in("Calculate log2(11) to four decimals.")
    'from math import log2\\nprint(log2(11))'
    >>> expression_in("What's 2 to the power of 20?") is None
    True
    """
    words = question.split()
    if len(words) > MAX_SCAN_WORDS:
        return None
    best: tuple[str, ast.Module, list[str]] | None = None
    for i in range(len(words)):
        if not re.match(r"[\w(\[{'\"-]", words[i]) or not re.search(r"[\d(\[{]", words[i]):
            continue
        for j in range(len(words), i, -1):
            candidate = " ".join(words[i:j]).rstrip("?.!,;:")
            if best is not None and len(candidate) <= len(best[0]):
                break
            tree = _parses(candidate)
            if tree is None or len(tree.body) != 1 or not _is_computation(tree):
                continue
            names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            from_math = sorted(n for n in names if not hasattr(builtins, n) and hasattr(math, n))
            if not names - set(from_math) - set(dir(builtins)) - {"math"}:  # only names we can provide
                head = ["import math"] if "math" in names else []
                head += [f"from math import {', '.join(from_math)}"] if from_math else []
                best = (candidate, tree, head)
                break
    if best is None:
        return None
    text, tree, head = best
    statement = tree.body[0]
    is_print = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call) and \
        isinstance(statement.value.func, ast.Name) and statement.value.func.id == "print"
    body = text if is_print or not isinstance(statement, ast.Expr) else f"print({text})"
    return "\n".join([*head, body])


def describe_code(code: str) -> str:
    """One sentence from the code's syntax tree: what it imports, defines and prints."""
    tree = _parses(code)
    if tree is None:
        return "It is not valid Python as written."
    imports = [alias.name for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
               for alias in ([ast.alias(node.module or "")] if isinstance(node, ast.ImportFrom) else node.names)]
    defines = [f"{n.name}({', '.join(a.arg for a in n.args.args)})" if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
               else f"class {n.name}" for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    prints = sum(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print" for n in ast.walk(tree))
    parts = [f"imports {', '.join(dict.fromkeys(imports))}"] if imports else []
    parts += [f"defines {', '.join(defines)}"] if defines else []
    parts += [f"prints {prints} value{'s' if prints != 1 else ''}" if prints else "prints nothing"]
    return "It " + (", ".join(parts[:-1]) + ", and " + parts[-1] if len(parts) > 1 else parts[0]) + "."


def _label(doc: Document, i: int) -> str:
    return str(doc.metadata.get("id") or doc.metadata.get("title") or f"document {i + 1}")


class LocalCoder:
    """Uses the code it is given or finds, and explains it (see the module docstring)."""

    def draft(self, question: str, findings: Sequence[AgentAnswer] = (),
              documents: Sequence[Document] = ()) -> CodeDraft:
        question = clean_query(question, what="question")
        blocks = code_blocks(question) or [c for c in _INLINE.findall(question) if (t := _parses(c)) and _is_computation(t)]
        if blocks:
            code = "\n".join(blocks)
            return CodeDraft(code, f"This is the code from your question. {describe_code(code)}", "question")
        expression = expression_in(question)
        if expression:
            return CodeDraft(expression, "This evaluates the expression written in your question.", "question")
        terms = set(tokenize(question))
        found = [(len(terms & set(tokenize(f"{d.metadata.get('title', '')} {d.page_content}"))), -i, block, _label(d, i))
                 for i, d in enumerate(documents) for block in code_blocks(d.page_content)]
        if found:
            _, _, code, label = max(found)
            return CodeDraft(code, f"This is the example from {label} that the handbook lookup found. {describe_code(code)}",
                             "documents", label)
        for answer in reversed(list(findings)):
            for code in code_blocks(answer.text):
                return CodeDraft(code, f"This is the code from the {answer.agent} agent's answer. {describe_code(code)}",
                                 "answers", f"{answer.agent} agent")
        return CodeDraft("", NO_CODE, "none")


CODER_PROMPT = ChatPromptTemplate.from_messages([
    ("system",
     "You are the code agent on a team of agents. Write one short, self-contained Python 3 program for the "
     "user's request. Use the standard library only (no numpy, pandas or network access): it runs in a "
     "sandbox with a few seconds and a few hundred MB. Print every result the user asked for. Use what the "
     "earlier agents found when it helps. Put the program in `code` (no Markdown fences) and one or two "
     "sentences on what it does in `explanation`.\n\nEarlier agents' answers:\n{findings}\n\nPassages:\n{documents}"),
    ("human", "{question}"),
])


class Program(BaseModel):
    code: str = Field(description="a complete Python 3 program, standard library only, that prints its results")
    explanation: str = Field(default="", description="one or two sentences on what the program does")


class LLMCoder:
    """The chat model writes the program; a failed or malformed reply gives no code (``fallback=True``).

    >>> from ragkit.core.chat_models import scripted
    >>> LLMCoder(scripted('{"code": "print(2 ** 20)", "explanation": "Powers of two."}')).draft("2^20?").code
    'print(2 ** 20)'
    """

    def __init__(self, model: BaseChatModel, prompt: ChatPromptTemplate = CODER_PROMPT, max_chars: int | None = 1_000):
        self.model, self.prompt, self.max_chars = model, prompt, max_chars

    def draft(self, question: str, findings: Sequence[AgentAnswer] = (),
              documents: Sequence[Document] = ()) -> CodeDraft:
        question = clean_query(question, what="question")
        result = call_structured(self.model, self.prompt, Program, {
            "question": question, "findings": format_findings(findings, self.max_chars),
            "documents": format_documents(list(documents))})
        if not result.ok:
            return CodeDraft("", f"The code agent's model gave no usable program ({result.note}).", "none", fallback=True)
        code = result.value.code.strip()
        code = (code_blocks(code) or [code])[0] if code.startswith("```") else code
        if not code:
            return CodeDraft("", "The code agent's model returned an empty program.", "none", fallback=True)
        return CodeDraft(code, result.value.explanation.strip() or describe_code(code), "model")


__all__ = ["CODER_PROMPT", "CodeDraft", "CodeOrigin", "Coder", "LLMCoder", "LocalCoder", "NO_CODE", "Program",
           "code_blocks", "describe_code", "expression_in"]
