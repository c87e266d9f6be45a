"""Every tuned default of ragkit, in one place: retrieval settings, role thresholds and graph caps.

The benchmarks, the graphs, the roles and the notebooks all read these values, so a number chosen on a
tuning split is written once, next to how it was chosen (the history is in the benchmark's README). "SciFact
train" means ``ragkit bench tune`` on the 809 train claims; "SQuAD 0-7" means SQuAD 2.0 articles 0-7;
"routing dev" means ``data/routing_dev.json``. None was chosen on a reporting split.

Simplification: plain frozen dataclasses, not a configuration system: pass other values to the class or
builder that takes them, or ``dataclasses.replace(RETRIEVAL, alpha=0.5)``. Do not mutate the weight dicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class RetrievalDefaults:
    """BM25, fusion, max-chunk, rerank and dense-index settings (SciFact train: ``benchmarks/README.md``)."""

    # BM25: the best point of a k1 x b grid on SciFact train.
    bm25_k1: float = 1.2
    bm25_b: float = 0.5
    # BM25 + whole-document dense fusion: weighted min-max beat RRF on SciFact train; alpha is BM25's weight.
    fusion: str = "weighted"
    alpha: float = 0.6
    rrf_k: int = 60  # RRF's customary k, used whenever fusion="rrf" is asked for
    fetch_k: int = 100  # how deep each retriever is read before fusing
    # Max-chunk dense (MaxP): chunking set by hand (not searched); its fusion tuned on SciFact train.
    chunk_size: int = 1000
    chunk_overlap: int = 150
    include_whole: bool = True  # the whole text is one more passage
    maxp_fusion: str = "weighted"
    maxp_alpha: float = 0.5
    # LocalReranker's signal weights and how many results it reorders: a weight grid x depth on SciFact train.
    rerank_weights: dict[str, float] = field(
        default_factory=lambda: {"sentence": 0.0, "passage": 0.4, "bm25": 0.4, "first_stage": 0.2})
    rerank_depth: int = 30
    maxp_rerank_weights: dict[str, float] = field(
        default_factory=lambda: {"sentence": 0.0, "passage": 0.3, "bm25": 0.3, "first_stage": 0.4})
    maxp_rerank_depth: int = 30
    # Dense index: exact below ann_min_docs documents, HNSW above; chosen at 500k documents (benchmarks/scale).
    ann_min_docs: int = 100_000
    hnsw_m: int = 48  # graph neighbours per vector (2 M on the bottom layer)
    hnsw_ef_construction: int = 80  # candidates kept while building
    hnsw_ef_search: int = 768  # candidates kept while searching


@dataclass(frozen=True)
class GraderDefaults:
    """LocalGrader: logistic weights on (cosine, best_sentence, coverage) fitted on SciFact train pairs, and a
    threshold that keeps ``recall_target`` of the relevant train pairs (``benchmarks/roles/README.md``)."""

    weights: tuple[float, float, float] = (0.6848, 8.6036, 2.9527)
    bias: float = -9.3415
    threshold: float = 0.0538
    recall_target: float = 0.8


@dataclass(frozen=True)
class JudgeDefaults:
    """LocalJudge bars on the grader's probability, chosen on SQuAD 0-7 (``benchmarks/crag``)."""

    relevant_above: float = 0.08
    irrelevant_below: float = 0.02
    ambiguity_margin: float = 0.02
    max_keep: int = 4


@dataclass(frozen=True)
class RouterDefaults:
    """LocalRouter settings chosen on routing dev (``benchmarks/roles/router_accuracy.py``)."""

    margin: float = 0.02
    min_similarity: float = 0.1
    k: int = 3
    passage_weight: float = 0.7
    passage_bar: float = 0.6
    term_weight: float = 0.15
    # Bonus, times the signal's strength, for a route serving the question's kind (RouteSpec.serves); chosen on
    # routing dev and the old blind set with the six values above held fixed.
    signal_weights: dict[str, float] = field(default_factory=lambda: {"fresh": 0.5, "general": 0.3, "ours": 0.15})


@dataclass(frozen=True)
class WriterDefaults:
    """LocalWriter: how many sentences, and the bars a sentence's relevance must clear."""

    max_sentences: int = 3
    support_bar: float = 0.4
    relative_bar: float = 0.15
    similarity_weight: float = 0.7
    diversity: float = 0.3


@dataclass(frozen=True)
class VerifierDefaults:
    """LocalHallucinationGrader's bars, and LocalAnswerGrader's relevance bar (``benchmarks/roles/README.md``).

    ``support_bar`` / ``coverage_bar`` (chosen for the earlier grader): a claim is an appended clause when its aligned
    span's cosine is below ``support_bar`` (also the sentence-level mode's bar) and fewer than ``coverage_bar``
    of its content words are supported.
    """

    support_bar: float = 0.6
    coverage_bar: float = 0.7
    synonym_bar: float = 0.6  # the word cosine at which a span word counts as a synonym (not tuned)
    overlap_weight: float = 0.5  # weight of word overlap next to cosine when a claim is aligned (not tuned)
    answer_bar: float = 0.35
    answer_similarity_weight: float = 0.6


@dataclass(frozen=True)
class GraphDefaults:
    """Caps and sizes the graphs start from (each is an argument of its builder)."""

    k: int = 4  # documents a graph retrieves and writes from
    max_question_chars: int = 2_000  # the input policy's limit (ragkit.core.contract)
    self_rag_max_attempts: int = 3
    crag_fetch_k: int = 12
    crag_max_corrections: int = 2
    crag_max_clarifications: int = 1
    crag_max_revisions: int = 1
    tool_max_rounds: int = 4
    tool_max_calls_per_round: int = 4
    tool_max_otp_attempts: int = 3
    tool_max_message_chars: int = 2_000


@dataclass(frozen=True)
class ToolPlannerDefaults:
    """LocalToolPlanner's MiniLM bars (set by hand) and its negation window (chosen on
    ``benchmarks/tools/planner_dev_messages.json``)."""

    min_similarity: float = 0.4  # cosine a MiniLM example must reach
    min_margin: float = 0.03  # and by how much it must beat the best example of any other tool
    negation_window: int = 4  # words after a negation cue in which an action word counts as negated


@dataclass(frozen=True)
class QueryAnalysisDefaults:
    """LocalQueryAnalyzer's embedding bars (an adjective naming a value, "Italian" -> Italy: set from the
    bundled data's values, ``benchmarks/query_analysis/README.md``), the structured retriever's cap on a
    listed set, and the plain-text answerability settings (ragkit.offline.judge)."""

    adjective_bar: float = 0.6
    adjective_margin: float = 0.1
    max_results: int = 50
    # Plain-text answerability, both chosen on SQuAD 0-7 (benchmarks/query_analysis/README.md): related_bar lets a
    # passage word this close count for a rare term ("France" ~ "French"), off as the grid's 0.6 gained < noise.
    related_bar: float | None = None
    negation_check: bool = True  # a "not" question needs a negated sentence, unless the analysis understood it


@dataclass(frozen=True)
class GraphWalkDefaults:
    """GraphRetriever's walk (``ragkit.core.graph_retriever``: personalized PageRank over a document graph),
    chosen on the first 50 MuSiQue questions over ``build_entity_graph`` (``benchmarks/statute/musique_retrieval.py``).
    A graph with one hub (a statute's definitions article) needs its own: ``STATUTE_QA.graph_*``."""

    direction: str = "forward"
    damping: float = 0.95
    mix: float = 1.0
    seed_k: int = 10


@dataclass(frozen=True)
class StatuteQADefaults:
    """Strategy-routed statute QA (``ragkit.graphs.statute_qa``): the tuned values were chosen on the DEV split
    of ``data/eval/statute_qa.json`` (``benchmarks/statute/README.md``); the caps were set by design."""

    k: int = 5  # articles a strategy returns (and the evidence grader reads)
    max_retrievals: int = 2
    max_generations: int = 2
    # follow_references: hops per run, and the bar a linked paragraph's score (the share of the question's missing
    # key terms it holds plus its grade) times the link's weight must reach (multihop questions, others): chosen on dev
    # and the multi-hop dev sets by HOP_RULE (benchmarks/statute/statute_qa.py).
    max_hops: int = 1
    hop_bar: float = 0.002
    multihop_hop_bar: float = 0.0
    # ... and the bar of the definition a hop adds apart, beside the best other link (None: they compete as one link).
    definition_hop_bar: float | None = 0.01
    # The walk over the article graph (it replaces GRAPH_WALK there), chosen on dev.
    graph_direction: str = "undirected"
    graph_damping: float = 0.3
    graph_mix: float = 0.5
    graph_seed_k: int = 10
    graph_defined_term_weight: float = 0.5  # weight of a defined-term edge (a reference edge weighs 1)
    # The question classifier (ragkit.domains.statute.questions.local_question_classifier), chosen on dev; the refusal
    # margin end to end on dev and the multi-hop dev sets.
    classifier_refuse_margin: float = 0.15
    classifier_k: int = 1
    classifier_passage_weight: float = 0.35
    classifier_passage_bar: float = 0.6  # not tuned (it only shifts the margin here)
    classifier_term_weight: float = 0.5
    # A question is glossed with the defined terms its words fall under (words at least this specific:
    # log(N/df)/log(N) over the paragraphs; None: never): the classifier reads a question it would refuse again,
    # glossed; the hop prefers those terms' definitions; the writer reads the glossed question.
    definition_gloss_bar: float | None = 0.6
    # The evidence grader's bar on LocalGrader's probability, chosen on dev (0: names and answer type decide).
    evidence_relevant_above: float = 0.0
    # The local writer's support bar here (WRITER's is 0.4): the evidence grader has judged the evidence sufficient
    # already, and a story-worded question is far from the rule's wording.
    writer_support_bar: float = 0.35
    # A bar (a number): a question the classifier calls unanswerable is searched (as the domain's safe kind) and
    # answered only when its evidence score reaches it. None (chosen on the dev pool of 226 by the balanced mean of
    # answerable answered right and unanswerable refused, benchmarks/statute/suspect_dial.py): such a question is
    # refused unsearched.
    suspect_refuse_below: float | None = None


@dataclass(frozen=True)
class SupervisorDefaults:
    """The supervisor graph's caps, its code runner's limits, and LocalSupervisor's weights, hop cost and earn
    margin (chosen on the supervisor routing tuning sets: ``benchmarks/supervisor/README.md``)."""

    max_hops: int = 3  # agents one run may call (the planned sequence is cut here)
    previous_answer_chars: int = 1_000  # each earlier agent's answer is cut to this before the next agent sees it
    k: int = 3  # prototypes averaged per agent (LocalRouter's k)
    term_weight: float = 0.15  # weight of the example-vocabulary term evidence
    head_weight: float = 0.3  # weight of the head evidence (which agents' examples open with a part's first word)
    hop_cost: float = 0.2  # what a hop costs where the wording marks no new step (a comma or a bare "and")
    earn_margin: float = 0.1  # how much more likely to serve its part a hop's agent must be than the whole question's agent
    earn_scale: str = "probability"  # the margin's unit: "probability" (a difference) or "log_odds" (a likelihood ratio)
    # Signals a route may serve (RouteSpec.serves): "compute", arithmetic on numbers the text gives; "execute", a
    # part that opens with a verb of running or measuring ("time it", "benchmark both").
    signal_weights: dict[str, float] = field(default_factory=lambda: {"compute": 0.3, "execute": 0.3})
    sandbox_timeout_s: float = 5.0  # wall clock for one piece of code
    sandbox_memory_mb: int = 256
    sandbox_max_output_bytes: int = 20_000


@dataclass(frozen=True)
class AdvancedDefaults:
    """The advanced pipeline's caps, depths (those of the production system it is modelled on) and query
    transforms (chosen on tuning splits: ``benchmarks/advanced/README.md``)."""

    max_retrieval_retries: int = 1  # query_transform again when no reranked document is relevant
    max_generation_retries: int = 1  # generate again when the answer is not grounded
    fetch_k: int = 20  # fused results handed to the reranker
    top_k: int = 4  # what the reranker keeps (and the grader grades)
    dense_k: int = 8  # the dense arm: MMR picks k of fetch_k
    dense_fetch_k: int = 20
    arm_k: int = 20  # results per query for the bm25 and hybrid arms
    # Local query transforms and the fusion of their lists: the best row of the hybrid "both" grid on 150
    # SciFact train claims (first_pass_k and n_alternatives not tuned).
    n_alternatives: int = 3
    prf_terms: int = 10
    first_pass_k: int = 5
    hypothetical_sentences: int = 3
    fusion: str = "weighted"
    original_weight: float = 2.0  # weight of the question's own list; each alternative's list weighs 1
    hypothetical_weight: float = 0.5
    # Below this score a message is searched, never small talk: intent dev + 300 SQuAD 0-7 questions.
    intent_min_similarity: float = 0.25


@dataclass(frozen=True)
class RefusalDefaults:
    """The answer/refuse dial of each RAG graph (its builder's ``refuse_below``): a run keeps its answer only
    when its ``confidence`` reaches the bar. 0.0 for every graph: a bar belongs to a corpus, and the one chosen
    on SQuAD (:data:`REFUSAL_SQUAD`) does not carry to the workbook's corpora (``benchmarks/refusal/README.md``);
    choose yours with ``benchmarks/refusal/risk_coverage.py``."""

    crag: float = 0.0
    self_rag: float = 0.0
    advanced_rag: float = 0.0
    statute_qa: float = 0.0


RETRIEVAL = RetrievalDefaults()
GRADER = GraderDefaults()
JUDGE = JudgeDefaults()
ROUTER = RouterDefaults()
WRITER = WriterDefaults()
VERIFIER = VerifierDefaults()
GRAPHS = GraphDefaults()
TOOL_PLANNER = ToolPlannerDefaults()
QUERY_ANALYSIS = QueryAnalysisDefaults()
GRAPH_WALK = GraphWalkDefaults()
STATUTE_QA = StatuteQADefaults()
SUPERVISOR = SupervisorDefaults()
ADVANCED = AdvancedDefaults()
REFUSAL = RefusalDefaults()
# Chosen on SQuAD 2.0 articles 0-7 and statute QA dev (``benchmarks/refusal/README.md``). For SQuAD-like
# corpora: ``build_crag_graph(refuse_below=REFUSAL_SQUAD.crag)``.
REFUSAL_SQUAD = RefusalDefaults(crag=0.2844, self_rag=0.2844, advanced_rag=0.2844, statute_qa=0.0)

__all__ = ["ADVANCED", "AdvancedDefaults", "GRADER", "GRAPHS", "GRAPH_WALK", "GraderDefaults", "GraphDefaults",
           "GraphWalkDefaults", "JUDGE",
           "JudgeDefaults", "QUERY_ANALYSIS",
           "REFUSAL", "REFUSAL_SQUAD", "RefusalDefaults", "QueryAnalysisDefaults", "RETRIEVAL", "ROUTER", "RetrievalDefaults",
           "RouterDefaults", "STATUTE_QA", "SUPERVISOR", "StatuteQADefaults", "SupervisorDefaults", "TOOL_PLANNER",
           "ToolPlannerDefaults", "VERIFIER",
           "VerifierDefaults", "WRITER", "WriterDefaults"]
