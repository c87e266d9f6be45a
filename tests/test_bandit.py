"""ragkit.bandit: policies checked against mabwiser and against formulas, convergence, persistence, threads, input checks."""

from __future__ import annotations

import json
import math
import random
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragkit.bandit import (
    FEATURE_NAMES,
    UCB1,
    BanditStateError,
    EpsilonGreedy,
    LinearThompsonSampling,
    LinUCB,
    SharedBandit,
    ThompsonSampling,
    load,
    query_features,
    save,
)
from ragkit.bandit.contextual import question_form

ARMS = ["dense", "bm25", "hybrid"]
CONTEXTUAL = (LinUCB, LinearThompsonSampling)



def idf_of(texts):
    """The corpus idf table the features read: BM25Retriever's public idf."""
    from langchain_core.documents import Document

    from ragkit.core.bm25 import BM25Retriever

    return BM25Retriever.from_documents([Document(t) for t in texts]).idf

def make(cls, seed=0, **kwargs):
    """One policy of any kind over ARMS (contextual ones on 3 features)."""
    if cls in CONTEXTUAL:
        kwargs.setdefault("n_features", 3)
    return cls(ARMS, seed=seed, **kwargs)


def context_for(policy, rng: np.random.Generator):
    return np.r_[1.0, rng.random(policy.n_features - 1)] if isinstance(policy, CONTEXTUAL) else None


def play(policy, steps: int, stream_seed: int = 0, probs=(0.3, 0.5, 0.7)) -> list[str]:
    """Run ``steps`` rounds on seeded Bernoulli arms; return the arms chosen."""
    rng = np.random.default_rng(stream_seed)
    chosen = []
    for _ in range(steps):
        x = context_for(policy, rng)
        arm = policy.select(x)
        policy.update(arm, float(rng.random() < probs[ARMS.index(arm)]), x)
        chosen.append(arm)
    return chosen


ALL = [ThompsonSampling, EpsilonGreedy, UCB1, LinUCB, LinearThompsonSampling]


# ----------------------------------------------------------------- reference: mabwiser
@pytest.fixture(scope="module")
def mab():
    return pytest.importorskip("mabwiser.mab")


def uniform_stream(steps: int, seed: int = 3) -> np.ndarray:
    return np.random.default_rng(seed).random((steps, len(ARMS)))


def test_ucb1_matches_mabwiser_bounds_and_choices(mab):
    # mabwiser's UCB1 bound is mean + alpha * sqrt(2 ln t / n): alpha=1 is our c=1 (Auer et al.'s UCB1).
    # mabwiser does not pull untried arms first, so both start from the same round of one pull per arm.
    rewards = uniform_stream(300)
    ours = UCB1(ARMS, c=1.0)
    first: list[str] = []
    for t, arm in enumerate(ARMS):
        assert ours.select() == arm  # each arm once, in order
        ours.update(arm, rewards[t, t])
        first.append(arm)
    ref = mab.MAB(ARMS, mab.LearningPolicy.UCB1(alpha=1.0))
    ref.fit(first, [rewards[t, t] for t in range(len(ARMS))])
    for t in range(len(ARMS), len(rewards)):
        expected = ref.predict_expectations()
        np.testing.assert_allclose(ours.bounds(), [expected[a] for a in ARMS], rtol=1e-12)
        arm = ours.select()
        assert arm == ref.predict(), f"step {t}"
        ours.update(arm, rewards[t, ARMS.index(arm)])
        ref.partial_fit([arm], [rewards[t, ARMS.index(arm)]])


def test_thompson_sampling_matches_mabwiser_draw_for_draw(mab):
    # Same seed, same numpy Generator, one Beta draw per arm in order: the choices coincide exactly.
    # mabwiser accepts only 0/1 rewards for Thompson sampling, so this stream is binary.
    stream = (uniform_stream(400, seed=5) < [0.3, 0.5, 0.6]).astype(float)
    ours = ThompsonSampling(ARMS, seed=11)
    ref = mab.MAB(ARMS, mab.LearningPolicy.ThompsonSampling(), seed=11)
    for i, arm in enumerate(ARMS):  # mabwiser needs a fit before its first predict
        ours.update(arm, stream[i, i])
    ref.fit(ARMS, [stream[i, i] for i in range(len(ARMS))])
    for t in range(len(ARMS), len(stream)):
        arm = ours.select()
        assert arm == ref.predict(), f"step {t}"
        ours.update(arm, stream[t, ARMS.index(arm)])
        ref.partial_fit([arm], [stream[t, ARMS.index(arm)]])
    assert ours.alpha.tolist() == [ref._imp.arm_to_success_count[a] for a in ARMS]
    assert ours.beta.tolist() == [ref._imp.arm_to_fail_count[a] for a in ARMS]


def test_thompson_sampling_fractional_posterior_is_the_formula():
    # With fractional rewards: alpha = 1 + sum r, beta = 1 + sum (1 - r), per arm (computed independently here).
    rng = np.random.default_rng(0)
    ts = ThompsonSampling(ARMS, seed=1)
    sums, counts = np.zeros(3), np.zeros(3)
    for _ in range(200):
        i, r = int(rng.integers(3)), float(rng.random())
        ts.update(ARMS[i], r)
        sums[i] += r
        counts[i] += 1
    np.testing.assert_allclose(ts.alpha, 1 + sums)
    np.testing.assert_allclose(ts.beta, 1 + counts - sums)
    stats = ts.stats()["arms"]["bm25"]
    assert stats["posterior_mean"] == pytest.approx((1 + sums[1]) / (2 + counts[1]))


def test_epsilon_greedy_matches_mabwiser_means_and_greedy_choices(mab):
    rewards = uniform_stream(300, seed=8)
    ours = EpsilonGreedy(ARMS, epsilon=0.0)
    for t, arm in enumerate(ARMS):
        assert ours.select() == arm
        ours.update(arm, rewards[t, t])
    ref = mab.MAB(ARMS, mab.LearningPolicy.EpsilonGreedy(epsilon=0.0))
    ref.fit(ARMS, [rewards[t, t] for t in range(len(ARMS))])
    for t in range(len(ARMS), len(rewards)):
        expected = ref.predict_expectations()
        np.testing.assert_allclose(ours.means(), [expected[a] for a in ARMS], rtol=1e-12)
        arm = ours.select()
        assert arm == ref.predict(), f"step {t}"
        ours.update(arm, rewards[t, ARMS.index(arm)])
        ref.partial_fit([arm], [rewards[t, ARMS.index(arm)]])


@pytest.mark.parametrize("cls, policy_name", [(LinUCB, "LinUCB"), (LinearThompsonSampling, "LinTS")])
def test_linear_policies_match_mabwiser_ridge_state_and_predictions(mab, cls, policy_name):
    rng = np.random.default_rng(4)
    contexts = np.c_[np.ones(200), rng.random((200, 2))]
    decisions = [ARMS[int(i)] for i in rng.integers(3, size=200)]
    rewards = rng.random(200)
    ours = cls(ARMS, n_features=3, alpha=0.7, l2=2.0)
    for x, arm, r in zip(contexts, decisions, rewards):
        ours.update(arm, r, x)
    ref = mab.MAB(ARMS, getattr(mab.LearningPolicy, policy_name)(alpha=0.7, l2_lambda=2.0), seed=0)
    ref.fit(decisions, rewards, contexts)
    for i, arm in enumerate(ARMS):
        model = ref._imp.arm_to_model[arm]
        np.testing.assert_allclose(ours.A[i], model.A, rtol=1e-10)
        np.testing.assert_allclose(ours.b[i], model.Xty, rtol=1e-10)
        np.testing.assert_allclose(ours.theta[i], model.beta, rtol=1e-8)
    if cls is LinUCB:
        for x in contexts[:20]:
            estimate, width = ours.estimates(x)
            expected = ref.predict_expectations(x[None, :])
            np.testing.assert_allclose(estimate + 0.7 * width, [expected[a] for a in ARMS], rtol=1e-8)
            assert ours.select(x) == ref.predict(x[None, :])


def test_linucb_bound_is_the_textbook_formula():
    # Independent numpy computation: theta = A^-1 b, bound = x.theta + alpha sqrt(x^T A^-1 x).
    rng = np.random.default_rng(9)
    policy = LinUCB(ARMS, n_features=2, alpha=0.5, l2=1.0)
    A, b = [np.eye(2) for _ in ARMS], [np.zeros(2) for _ in ARMS]
    for _ in range(50):
        x, i, r = np.r_[1.0, rng.random()], int(rng.integers(3)), float(rng.random())
        policy.update(ARMS[i], r, x)
        A[i] = A[i] + np.outer(x, x)
        b[i] = b[i] + r * x
    x = np.array([1.0, 0.3])
    bounds = [x @ np.linalg.solve(A[i], b[i]) + 0.5 * math.sqrt(x @ np.linalg.solve(A[i], x)) for i in range(3)]
    stats = policy.stats(context=x)["arms"]
    assert [stats[a]["bound"] for a in ARMS] == pytest.approx(bounds)
    assert policy.select(x) == ARMS[int(np.argmax(bounds))]


# ----------------------------------------------------------------- convergence on synthetic arms
PROBS = (0.2, 0.5, 0.8)  # "hybrid" is best


def regret(policy, steps=2000, stream_seed=0):
    chosen = play(policy, steps, stream_seed, PROBS)
    best = max(PROBS)
    return sum(best - PROBS[ARMS.index(a)] for a in chosen), chosen


@pytest.mark.parametrize("cls, kwargs, margin", [
    (ThompsonSampling, {}, 0.9),
    (UCB1, {}, 0.85),
    (EpsilonGreedy, {"epsilon": 0.1}, 0.85),
    # Constant context [1]: the linear policies become context-free. alpha must reach the reward scale, or
    # an arm never played (estimate 0, bound alpha / sqrt(l2)) may never be tried.
    (LinUCB, {"n_features": 1, "alpha": 1.0}, 0.85),
    (LinearThompsonSampling, {"n_features": 1, "alpha": 1.0}, 0.85),
])
def test_each_policy_mostly_plays_the_best_arm_after_2000_pulls(cls, kwargs, margin):
    for seed in range(3):
        _, chosen = regret(cls(ARMS, seed=seed, **kwargs), stream_seed=seed)
        assert chosen.count("hybrid") / len(chosen) > margin, (cls.__name__, seed)


def test_thompson_and_ucb_regret_below_epsilon_greedy_with_heavy_exploration():
    def mean_regret(factory):
        return np.mean([regret(factory(seed), stream_seed=seed)[0] for seed in range(5)])

    eg = mean_regret(lambda s: EpsilonGreedy(ARMS, seed=s, epsilon=0.3))
    assert mean_regret(lambda s: ThompsonSampling(ARMS, seed=s)) < eg
    assert mean_regret(lambda s: UCB1(ARMS, seed=s)) < eg


def test_linucb_learns_which_arm_suits_which_context():
    # bm25 wins on contexts with feature 1 on, dense otherwise; a context-free policy cannot get both.
    rng = np.random.default_rng(0)
    policy = LinUCB(ARMS, n_features=2, alpha=0.3, seed=0)
    late = []
    for t in range(1500):
        flag = float(rng.random() < 0.5)
        x = np.array([1.0, flag])
        arm = policy.select(x)
        p = {"bm25": 0.8 if flag else 0.2, "dense": 0.2 if flag else 0.8, "hybrid": 0.5}[arm]
        policy.update(arm, float(rng.random() < p), x)
        if t >= 1000:
            late.append(arm == ("bm25" if flag else "dense"))
    assert np.mean(late) > 0.9


@pytest.mark.parametrize("cls", ALL)
def test_policies_are_deterministic_for_a_seed(cls):
    assert play(make(cls, seed=7), 200) == play(make(cls, seed=7), 200)
    assert play(make(cls, seed=random.Random(3)), 50) == play(make(cls, seed=random.Random(3)), 50)
    assert play(make(cls, seed=np.random.default_rng(5)), 50) == play(make(cls, seed=np.random.default_rng(5)), 50)


# ----------------------------------------------------------------- stats
@pytest.mark.parametrize("cls", ALL)
def test_stats_are_json_ready_before_and_after_learning(cls):
    policy = make(cls)
    json.dumps(policy.stats(), allow_nan=False)
    play(policy, 30)
    stats = policy.stats()
    json.dumps(stats, allow_nan=False)
    assert stats["total_pulls"] == 30 == sum(a["pulls"] for a in stats["arms"].values())
    assert set(stats["arms"]) == set(ARMS)


def test_stats_name_each_policys_posterior():
    ts, ucb = ThompsonSampling(ARMS), UCB1(ARMS)
    assert {"alpha", "beta", "posterior_mean"} <= set(ts.stats()["arms"]["dense"])
    assert ucb.stats()["arms"]["dense"]["bound"] is None  # never pulled: an infinite bound, reported as null
    ucb.update("dense", 1.0)
    assert ucb.stats()["arms"]["dense"] == {"pulls": 1, "mean_reward": 1.0, "estimate": 1.0, "bound": 1.0}


# ----------------------------------------------------------------- persistence
@pytest.mark.parametrize("cls", ALL)
def test_save_load_round_trip_continues_identically(cls, tmp_path):
    policy = make(cls, seed=3)
    play(policy, 40)
    path = save(policy, tmp_path / "state.json")
    loaded = load(path)
    assert type(loaded) is cls and loaded.arms == policy.arms
    assert loaded.stats() == policy.stats()
    assert play(loaded, 30, stream_seed=9) == play(policy, 30, stream_seed=9)  # the random generator was saved too
    assert not list(tmp_path.glob("*.tmp"))  # the temporary file was swapped in, not left behind


def test_state_file_records_format_kind_version_and_arms(tmp_path):
    data = json.loads(save(UCB1(ARMS), tmp_path / "s.json").read_text())
    assert (data["format"], data["version"], data["kind"], data["arms"]) == ("ragkit.bandit", 1, "ucb1", ARMS)


@pytest.mark.parametrize("content, problem", [
    ("{not json", "not valid JSON"),
    ('{"kind": "bm25", "format_version": 1}', "not a ragkit bandit state"),
    ('[1, 2, 3]', "not a ragkit bandit state"),
    ('{"format": "ragkit.bandit", "version": 99, "kind": "ucb1"}', "version 99"),
    ('{"format": "ragkit.bandit", "version": 1, "kind": "magic"}', "unknown policy kind"),
    ('{"format": "ragkit.bandit", "version": 1, "kind": "ucb1", "arms": ["a"]}', "is damaged"),
])
def test_unreadable_or_foreign_files_are_clear_errors(tmp_path, content, problem):
    path = tmp_path / "state.json"
    path.write_text(content)
    with pytest.raises(BanditStateError, match=problem) as info:
        load(path)
    assert str(path) in str(info.value)


def test_damaged_posterior_is_rejected(tmp_path):
    path = save(ThompsonSampling(ARMS), tmp_path / "s.json")
    data = json.loads(path.read_text())
    data["state"]["alpha"][0] = -1.0
    path.write_text(json.dumps(data))
    with pytest.raises(BanditStateError, match="damaged.*alpha"):
        load(path)


def test_other_kind_or_other_arms_are_refused(tmp_path):
    path = save(ThompsonSampling(ARMS), tmp_path / "s.json")
    with pytest.raises(BanditStateError, match="holds a thompson_sampling policy, expected ucb1"):
        load(path, kind="ucb1")
    with pytest.raises(BanditStateError, match="holds arms"):
        load(path, arms=["dense", "bm25"])
    with pytest.raises(BanditStateError, match="holds arms"):
        SharedBandit.open(path, lambda: ThompsonSampling(["bm25", "dense", "hybrid"]))  # same names, other order


def test_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="not found"):
        load(tmp_path / "nope.json")


@pytest.mark.parametrize("content", ["{not json", '{"some": "other tool"}'])
def test_a_file_that_cannot_be_read_is_never_overwritten(tmp_path, content):
    path = tmp_path / "state.json"
    path.write_text(content)
    with pytest.raises(BanditStateError):
        SharedBandit.open(path, lambda: ThompsonSampling(ARMS))
    with pytest.raises(BanditStateError):
        save(ThompsonSampling(ARMS), path)
    assert path.read_text() == content
    save(ThompsonSampling(ARMS), path, force=True)  # only on request
    assert load(path).kind == "thompson_sampling"


def test_shared_bandit_open_creates_then_resumes(tmp_path):
    path = tmp_path / "bandit.json"
    shared = SharedBandit.open(path, lambda: ThompsonSampling(ARMS, seed=1), save_every=5)
    for _ in range(10):
        shared.update(shared.select(), 1.0)
    assert path.exists()
    again = SharedBandit.open(path, lambda: ThompsonSampling(ARMS, seed=1))
    assert again.stats()["total_pulls"] == 10


# ----------------------------------------------------------------- threads
@pytest.mark.parametrize("cls", [ThompsonSampling, UCB1, LinUCB])
def test_concurrent_updates_are_never_lost(cls, tmp_path):
    shared = SharedBandit(make(cls, seed=0), tmp_path / "s.json", save_every=50)
    n_threads, per_thread = 8, 250
    start = threading.Barrier(n_threads)

    def worker(k: int) -> None:
        rng = np.random.default_rng(k)
        start.wait()
        for _ in range(per_thread):
            x = context_for(shared.policy, rng)
            shared.update(shared.select(x), float(rng.random()), x)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stats = shared.stats()
    assert stats["total_pulls"] == n_threads * per_thread
    assert sum(a["pulls"] for a in stats["arms"].values()) == n_threads * per_thread
    if cls is ThompsonSampling:
        assert float(shared.policy.alpha.sum() + shared.policy.beta.sum()) == pytest.approx(2 * 3 + n_threads * per_thread)
    assert load(tmp_path / "s.json").stats()["total_pulls"] == n_threads * per_thread


# ----------------------------------------------------------------- bad input
@pytest.mark.parametrize("cls", ALL)
@pytest.mark.parametrize("arms, message", [([], "arms is empty"), (["a", "a", "b"], "unique"), ("dense", "single string"), (["a", ""], "non-empty")])
def test_bad_arm_lists(cls, arms, message):
    kwargs = {"n_features": 2} if cls in CONTEXTUAL else {}
    with pytest.raises(ValueError, match=message):
        cls(arms, **kwargs)


@pytest.mark.parametrize("cls", ALL)
@pytest.mark.parametrize("reward", [-0.1, 1.5, float("nan"), float("inf"), "0.5", None])
def test_bad_rewards(cls, reward):
    policy = make(cls)
    x = context_for(policy, np.random.default_rng(0))
    with pytest.raises(ValueError, match="reward must be"):
        policy.update("bm25", reward, x)
    assert policy.pulls.sum() == 0


@pytest.mark.parametrize("cls", ALL)
def test_unknown_arm(cls):
    policy = make(cls)
    with pytest.raises(ValueError, match=r"unknown arm 'colbert'.*\['dense', 'bm25', 'hybrid'\]"):
        policy.update("colbert", 1.0, context_for(policy, np.random.default_rng(0)))


@pytest.mark.parametrize("cls", CONTEXTUAL)
@pytest.mark.parametrize("context", [None, [1.0, 2.0], [[1.0, 2.0, 3.0]], [1.0, float("nan"), 0.0], "abc"])
def test_contextual_policies_need_a_context_of_the_right_length(cls, context):
    policy = make(cls)
    with pytest.raises(ValueError, match="needs a context: a vector of 3"):
        policy.select(context)
    with pytest.raises(ValueError, match="needs a context"):
        policy.update("dense", 1.0, context)
    assert policy.pulls.sum() == 0 and not policy.b.any()


@pytest.mark.parametrize("factory, message", [
    (lambda: EpsilonGreedy(ARMS, epsilon=1.5), "epsilon"),
    (lambda: UCB1(ARMS, c=-1), "c \\(the exploration scale\\)"),
    (lambda: LinUCB(ARMS, n_features=0), "n_features"),
    (lambda: LinUCB(ARMS, n_features=2, l2=0.0), "l2 must be > 0"),
    (lambda: LinUCB(ARMS, n_features=2, alpha=float("nan")), "alpha"),
    (lambda: LinUCB(ARMS, n_features=2, feature_names=["a"]), "feature_names"),
])
def test_bad_parameters(factory, message):
    with pytest.raises(ValueError, match=message):
        factory()


def test_bad_seed_type():
    with pytest.raises(TypeError, match="seed must be"):
        ThompsonSampling(ARMS, seed="42")


# ----------------------------------------------------------------- properties
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.floats(0.0, 1.0, allow_nan=False)), max_size=60))
def test_any_valid_reward_stream_keeps_posteriors_positive_and_counts_consistent(stream):
    ts, ucb, eg = ThompsonSampling(ARMS), UCB1(ARMS), EpsilonGreedy(ARMS)
    for i, r in stream:
        for policy in (ts, ucb, eg):
            policy.update(ARMS[i], r)
    assert (ts.alpha > 0).all() and (ts.beta > 0).all()
    np.testing.assert_allclose(ts.alpha + ts.beta, 2 + ts.pulls)
    for policy in (ts, ucb, eg):
        assert policy.pulls.tolist() == [sum(1 for i, _ in stream if i == k) for k in range(3)]
        assert policy.select() in ARMS
    means = ucb.means()
    assert all(np.isnan(m) or 0.0 <= m <= 1.0 for m in means)


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=200))
def test_query_features_are_finite_and_bounded_for_any_text(text):
    idf = idf_of(["red wine with fish", "white wine", "vitamin d and bone density in 2019"])
    x = query_features(text, idf)
    assert x.shape == (len(FEATURE_NAMES),) and np.isfinite(x).all()
    named = dict(zip(FEATURE_NAMES, x))
    assert named["bias"] == 1.0 and named["log_tokens"] >= 0
    for name in ("mean_idf", "max_idf", "rare_share", "oov_share"):
        assert 0.0 <= named[name] <= 1.0
    assert sum(named[n] for n in FEATURE_NAMES if n.startswith("q_")) <= 1.0


# ----------------------------------------------------------------- features
def test_question_forms():
    assert question_form("What causes scurvy?") == "what"
    assert question_form("How do vaccines work?") == "how"
    assert question_form("Which gene is involved?") == "wh_other"
    assert question_form("Is vitamin C an antioxidant?") == "yes_no"
    assert question_form("Vitamin C is an antioxidant.") is None


def test_features_track_rarity():
    docs = [f"common term doc {i}" for i in range(50)] + ["rare zebrafish study"]
    idf = idf_of(docs)
    rare, common = (dict(zip(FEATURE_NAMES, query_features(q, idf))) for q in ("zebrafish study", "common term"))
    assert rare["rare_share"] == 1.0 and common["rare_share"] == 0.0
    assert rare["max_idf"] == 1.0 > common["max_idf"]


def test_features_need_an_idf_table():
    with pytest.raises(ValueError, match="idf is empty"):
        query_features("vitamin c", {})
    with pytest.raises(ValueError, match="no document contains"):
        idf_of(["the and of"])
