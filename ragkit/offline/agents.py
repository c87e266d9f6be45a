"""The supervisor's local agents: an analyst that lines up evidence, a coder that finds code, an
aggregator that merges the answers. Offline and honestly limited; each says what it could not do.

- ``LocalAnalyst``: reads the options the question names (:func:`options_in`: "A or B", "A vs B",
  "between A and B", "compare A and/with B"), finds the evidence sentences about each one in the passages
  and the earlier answers (ranked by MiniLM cosine to the question) and lines them up: one bullet list per
  option, the sentences that mention several, the numbers the code agent printed. Without options it lists
  the most relevant points, near-repeats skipped. It cannot weigh options for the user's case, do
  arithmetic on the evidence, or notice that two sentences contradict each other, and says so.
- ``LocalCoder``: writes no new code. It uses, in this order, a fenced block or inline `` `code` `` in the
  question; a Python expression written in the question ("What is 0.75 * 384 + 12?"); the code block of the
  documents found that shares most terms with the question; a code block of an earlier answer; and explains
  it from its syntax tree (:func:`describe_code`). It cannot turn words into code ("2 to the power of 20"),
  pick between blocks that share no words with the question, or know whether found code answers the request.
- ``LocalAggregator``: one answer is returned as it is; several become numbered sections in the order the
  agents ran, under each agent's title, with sentences an earlier agent already said dropped (code blocks
  never touched) and a last line naming the agents that could not do their part. Repeats are exact
  sentences after removing citations and case, so a paraphrase stays; answers that disagree are not reconciled.

``corpus`` names what the rag agent searches (e.g. "manual"), in the messages that suggest a lookup.

>>> options_in("For a small corpus, is BM25 or dense retrieval the better pick?")
['BM25', 'dense retrieval']
>>> LocalCoder().draft("What is 0.75 * 384 + 12? Please compute it.").code
'print(0.75 * 384 + 12)'
"""

from __future__ import annotations

import ast
import builtins
import math
import re
from itertools import takewhile
from typing import Mapping, Sequence

import numpy as np
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from ragkit.core.embeddings import embed, load_embedder
from ragkit.core.nlp import (
    FENCE,
    QUESTION_STOPWORDS,
    clean_query,
    code_blocks,
    mentions,
    prose_sentences,
    split_sentences,
    strip_citations,
    tokenize,
)
from ragkit.roles.agent_protocols import AgentAnswer, Aggregate, Analysis, CodeDraft


def label(doc: Document, i: int, what: str = "document") -> str:
    """How an answer names a document: its id, else its title, else its position."""
    return str(doc.metadata.get("id") or doc.metadata.get("title") or f"{what} {i + 1}")


# ---------------------------------------------------------------- analyst
LIMITS = ("This lines up what was found; it is not a judgement: the offline analyst does not weigh options for "
          "your case (pass chat_model= for a reasoned comparison).")
_WORD = re.compile(r"[\w@#+.'-]*\w|[,;:?!()]")
_JOINS = {"or", "vs", "versus", "against"}
# "between A and B", "compare A and/with/to B": the joins that count only after these openers
_OPENERS = {"between": {"and"}, "compare": {"and", "with", "to", "against"}, "comparing": {"and", "with", "to"}}
MAX_OPTION_WORDS = 3
# English words that end an option's name: "is BM25 or dense retrieval [better] ...".
_OPTION_STOPS = frozenset("is are be better best worse worst preferable faster slower cheaper easier harder simpler "
                          "safer smarter wiser".split())


def _stop(word: str) -> bool:
    return not word[0].isalnum() or word.lower() in QUESTION_STOPWORDS or word.lower() in _OPTION_STOPS


def _phrase(words: list[str], skip: int = 0) -> list[str]:
    """Up to ``skip`` leading stopwords dropped, then words up to the next stopword or punctuation mark
    (at most MAX_OPTION_WORDS)."""
    while skip and words and _stop(words[0]) and words[0][0].isalnum():
        words, skip = words[1:], skip - 1
    return list(takewhile(lambda word: not _stop(word), words[:MAX_OPTION_WORDS]))


def options_in(question: str) -> list[str]:
    """The two things a question asks to compare, as written; [] when none.

    >>> options_in("Compare IVF and HNSW on memory use.")
    ['IVF', 'HNSW']
    """
    words = _WORD.findall(question)
    lower = [w.lower() for w in words]
    for i, word in enumerate(lower):
        opener = next((j for j in range(i - 1, max(-1, i - 9), -1) if lower[j] in _OPENERS), None)
        pair = opener is not None and word in _OPENERS[lower[opener]]
        if word not in _JOINS and not pair:
            continue
        if pair:  # read forward from the opener: "between [a supervisor] with three workers and ..."
            left = _phrase(words[opener + 1:i], skip=2)  # type: ignore[operator]
        else:  # read backward from the join: "for a demo, [HNSW] or ..."
            left = list(reversed(_phrase(list(reversed(words[max(0, i - MAX_OPTION_WORDS):i])))))
        right = _phrase(words[i + 1:i + 3 + MAX_OPTION_WORDS], skip=2)
        if left and right:
            return [" ".join(left), " ".join(right)]
    return []


def evidence_sentences(findings: Sequence[AgentAnswer], documents: Sequence[Document]) -> list[tuple[str, str]]:
    """``(sentence, where it came from)`` from the passages and the earlier answers (code blocks left out)."""
    out = [(s.text, label(documents[s.doc], s.doc, "passage")) for s in prose_sentences(list(documents))]
    for answer in findings:
        text = re.sub(r"(`{3,}).*?\1", " ", answer.text, flags=re.DOTALL)
        out.extend((strip_citations(s), f"{answer.agent} agent") for s in split_sentences(text) if len(s.split()) > 3)
    unique: dict[str, tuple[str, str]] = {}  # the first of each sentence, case and spacing ignored
    for sentence, where in out:
        unique.setdefault(" ".join(sentence.lower().split()), (sentence, where))
    return list(unique.values())


def printed_numbers(findings: Sequence[AgentAnswer], max_lines: int = 5) -> list[str]:
    """Lines of program output (inside the code agent's "Output" block) that hold a digit."""
    blocks = [block for answer in findings if answer.agent == "code"
              for _, block in re.findall(r"Output:\n(`{3,})\n(.*?)\1", answer.text, flags=re.DOTALL)]
    return [line.strip() for block in blocks for line in block.splitlines() if re.search(r"\d", line)][:max_lines]


class LocalAnalyst:
    """Structured comparison of the evidence (see the module docstring)."""

    def __init__(self, embedder: Embeddings | None = None, per_option: int = 2, max_points: int = 4,
                 duplicate_bar: float = 0.9, corpus: str = "document"):
        self.embedder = embedder if embedder is not None else load_embedder()
        self.per_option, self.max_points, self.duplicate_bar, self.corpus = per_option, max_points, duplicate_bar, corpus

    def analyse(self, question: str, findings: Sequence[AgentAnswer] = (),
                documents: Sequence[Document] = ()) -> Analysis:
        question = clean_query(question, what="question")
        evidence = evidence_sentences(findings, documents)
        numbers = printed_numbers(findings)
        if not evidence and not numbers:
            return Analysis("There is nothing to analyse: no earlier agent found anything for this question, and the "
                            f"offline analyst does not reason without evidence. Ask for a {self.corpus} lookup first, "
                            "or pass chat_model= for a reasoned answer.")
        options = options_in(question)
        lines: list[str] = []
        used = 0
        if evidence:
            vectors = embed(self.embedder, [question, *[s for s, _ in evidence]])
            order = [int(i) for i in np.argsort(-(vectors[1:] @ vectors[0]), kind="stable")]  # most relevant first
            cited = [f"{sentence} ({where})" for sentence, where in evidence]
            if options:
                about = {o: [i for i in order if mentions(evidence[i][0], o)] for o in options}
                both = [i for i in order if sum(i in about[o] for o in options) >= 2]
                lines.append(f"Comparison of {' and '.join(options)}, from what was found:")
                for option in options:
                    own = [i for i in about[option] if i not in both][: self.per_option]
                    found = " ".join(cited[i] for i in own) if own else "nothing found about it."
                    lines.append(f"- {option}: {found}")
                    used += len(own)
                if both:
                    lines.append("- Both: " + " ".join(cited[i] for i in both[: self.per_option]))
                    used += min(len(both), self.per_option)
            else:
                picked = self._diverse(order, vectors[1:])
                lines.append("The points found that bear most on the question, most relevant first:")
                lines.extend(f"- {cited[i]}" for i in picked)
                used = len(picked)
        if numbers:
            lines.append("Results the code printed: " + "; ".join(numbers))
        lines.append(LIMITS)
        return Analysis("\n".join(lines), tuple(options), used)

    def _diverse(self, order: list[int], vectors: np.ndarray) -> list[int]:
        picked: list[int] = []
        for i in order:
            if all(float(vectors[i] @ vectors[j]) < self.duplicate_bar for j in picked):
                picked.append(i)
            if len(picked) == self.max_points:
                break
        return picked


# ---------------------------------------------------------------- the rag agent's query
SOURCE_NOUNS = ("documentation", "docs", "manual", "knowledge base")  # words for "the collection searched"
_REPORT_VERBS = r"(?:say|says|said|tell|tells|mention|mentions|write|writes|state|states|cover|covers|have to say|has to say)(?:\s+(?:us|me|you))?"
_LOOKUP_VERBS = r"(?:look\s+up|look\s+for|find|check|search(?:\s+for)?|read(?:\s+up)?(?:\s+(?:about|on))?|get|consult|see)"
_DETERMINER = r"(?:the\s+|our\s+|this\s+|your\s+)?"


def search_subject(task: str, sources: Sequence[str] = ()) -> str:
    """The subject of a lookup request without the words that frame it: the name of the collection searched
    (``sources``, plus :data:`SOURCE_NOUNS`), "what does ... say about", a leading "look up" / "find". The
    collection's name is in none of its passages, so left in a query it only lowers every relevance score.
    Nothing left: the task unchanged.

    >>> search_subject("What does the handbook say about MMR?", ["handbook"])
    'MMR?'
    >>> search_subject("Look up reciprocal rank fusion in the handbook", ["handbook"])
    'reciprocal rank fusion'
    >>> search_subject("Find the handbook's example of a conditional edge.", ["handbook"])
    'example of a conditional edge.'
    >>> search_subject("What does the handbook say?", ["handbook"]), search_subject("Define nDCG.")
    ('What does the handbook say?', 'Define nDCG.')
    """
    names = sorted({*(s.strip().lower() for s in sources if s.strip()), *SOURCE_NOUNS}, key=len, reverse=True)
    alternatives = "|".join(r"\s+".join(map(re.escape, name.split())) for name in names)
    source = rf"{_DETERMINER}(?:{alternatives})"
    text = task.strip()
    for pattern in (
        rf"\b{source}(?:'s|\u2019s)\s+",  # "the handbook's example"
        rf"\b(?:what|how)\s+(?:does|do|did)\s+{source}\s+{_REPORT_VERBS}\b(?:\s+(?:about|on|regarding|of|for))?",
        rf"\b(?:what|that)\s+{source}\s+{_REPORT_VERBS}\b(?:\s+(?:about|on|regarding|of|for))?",
        rf"^(?:please\s+)?{_LOOKUP_VERBS}\b\s*",  # an imperative lookup verb in front
        rf"^{source}\s+(?:for|on|about)\b",  # "(check) the handbook for X"
        rf"\s*,?\s*\b(?:in|from|per|according\s+to|within|inside|of)\s+{source}(?!\w)",
    ):
        text = re.sub(pattern, " ", text, flags=re.IGNORECASE).strip()
    text = re.sub(r"\s+([?.!,;:])", r"\1", re.sub(r"\s+", " ", text)).strip(" ,;:")
    return text if tokenize(text) else task.strip()


# ---------------------------------------------------------------- coder
_INLINE = re.compile(r"`([^`\n]+)`")
MAX_SCAN_WORDS = 80  # questions longer than this are not scanned for a written-out expression


def no_code_message(corpus: str = "document") -> str:
    """What the local coder says when it has no code to run."""
    return ("The offline code agent writes no new code: it runs code it is given or finds. I found no Python in "
            "your question or in what the earlier agents found. Put the code in backticks or a ``` block, ask for "
            f"a {corpus} example first, or pass chat_model= to have code written for you.")


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
    """One sentence from the code's syntax tree: what it imports, defines and prints.

    >>> describe_code("import math\\ndef f(x):\\n    return x\\nprint(f(2))")
    'It imports math, defines f(x), and prints 1 value.'
    """
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


class LocalCoder:
    """Uses the code it is given or finds, and explains it (see the module docstring)."""

    def __init__(self, corpus: str = "document"):
        self.corpus = corpus

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
        found = [(len(terms & set(tokenize(f"{d.metadata.get('title', '')} {d.page_content}"))), -i, block, label(d, i))
                 for i, d in enumerate(documents) for block in code_blocks(d.page_content)]
        if found:
            _, _, code, where = max(found)
            return CodeDraft(code, f"This is the example from {where} that the {self.corpus} lookup found. "
                             f"{describe_code(code)}", "documents", where)
        for answer in reversed(list(findings)):
            for code in code_blocks(answer.text):
                return CodeDraft(code, f"This is the code from the {answer.agent} agent's answer. {describe_code(code)}",
                                 "answers", f"{answer.agent} agent")
        return CodeDraft("", no_code_message(self.corpus), "none")


# ---------------------------------------------------------------- aggregator
def _key(sentence: str) -> str:
    return " ".join(strip_citations(sentence).lower().split()).rstrip(".!?")


def drop_repeats(text: str, seen: set[str]) -> str:
    """The text without sentences already in ``seen`` (updated in place); code blocks are kept whole.

    >>> seen = {"it is fast"}
    >>> drop_repeats("It is fast [2]. It is exact.\\n```\\nprint(1)\\n```", seen)
    'It is exact.\\n```\\nprint(1)\\n```'
    """
    out: list[str] = []
    fence = ""  # the fence of the code block we are in ("" outside one)
    for line in text.splitlines():
        if FENCE.match(line):
            run = re.match(r"\s*(`+|~+)", line).group(1)
            if not fence:
                fence = run
            elif run[0] == fence[0] and len(run) >= len(fence) and not line.strip()[len(run):]:
                fence = ""  # a closing fence: as long as the opening one at least, nothing after it
            out.append(line)
            continue
        if fence or not line.strip():
            out.append(line)
            continue
        prefix = re.match(r"^\s*([-*]|\d+[.)])\s+", line)
        body = line[prefix.end():] if prefix else line
        kept = [s for s in split_sentences(body) if _key(s) not in seen]
        seen.update(_key(s) for s in split_sentences(body))
        if kept:
            out.append((prefix.group(0) if prefix else "") + " ".join(kept))
    return "\n".join(out).strip()


class LocalAggregator:
    """Numbered sections in the order the agents ran, repeats dropped (see the module docstring).

    >>> merged = LocalAggregator({"rag": "Looked up", "code": "Code"}).combine("q", [
    ...     AgentAnswer("rag", "RRF adds 1/(k + rank) [1]."), AgentAnswer("code", "RRF adds 1/(k + rank). It printed 0.0328.")])
    >>> print(merged.text)
    1. Looked up (rag agent)
    RRF adds 1/(k + rank) [1].
    <BLANKLINE>
    2. Code (code agent)
    It printed 0.0328.
    """

    def __init__(self, titles: Mapping[str, str] | None = None):
        self.titles = dict(titles or {})

    def combine(self, question: str, answers: Sequence[AgentAnswer]) -> Aggregate:
        answers = [a for a in answers if a.text.strip()]
        if not answers:
            return Aggregate("No agent produced an answer to this question.", (), fallback=True)
        agents = tuple(a.agent for a in answers)
        if len(answers) == 1:
            return Aggregate(answers[0].text.strip(), agents)
        seen: set[str] = set()
        sections = []
        for n, answer in enumerate(answers, start=1):
            body = drop_repeats(answer.text, seen) or "(this repeats what the agents above said)"
            title = self.titles.get(answer.agent, answer.agent.capitalize())
            sections.append(f"{n}. {title} ({answer.agent} agent)\n{body}")
        failed = [a.agent for a in answers if not a.ok]
        if failed:
            sections.append("Not done: the " + ", ".join(dict.fromkeys(failed)) + " agent could not do its part "
                            "(see above).")
        return Aggregate("\n\n".join(sections), agents)


__all__ = ["LIMITS", "SOURCE_NOUNS", "LocalAggregator", "LocalAnalyst", "LocalCoder", "describe_code", "drop_repeats",
           "evidence_sentences", "expression_in", "label", "no_code_message", "options_in", "printed_numbers",
           "search_subject"]
