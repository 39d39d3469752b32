#!/usr/bin/env python3
"""Random small 0/1 models for tests/e2e_model_peers.sh, seeded so that a
failure can be replayed.  Usage: random_models.py KIND SEED OUT

KIND lp:  OUT.lp, a CPLEX LP with integer coefficients of both signs,
          rows <=, >= and =, and an objective (min or max) or none.
KIND opb: OUT.opb with ~x literals and an objective or none, and the
          same model as OUT.lp (each ~x written as 1 - x) for glpsol.
KIND cnf: OUT.cnf, random 3-SAT near the threshold (sat or unsat).
"""
import random
import sys


def lp_model(rng, out):
    n = rng.randint(4, 12)
    m = rng.randint(2, 8)
    lines = []
    sense = rng.choice(["Minimize", "Maximize", None])
    lines.append(sense or "Minimize")
    if sense:
        terms = " ".join("%+d x%d" % (rng.randint(-9, 9) or 1, j) for j in range(1, n + 1))
        lines.append(" obj: " + terms)
    else:
        lines.append(" obj: 0 x1")
    lines.append("Subject To")
    for i in range(m):
        cols = rng.sample(range(1, n + 1), rng.randint(1, n))
        terms = " ".join("%+d x%d" % (rng.randint(-5, 5) or 2, j) for j in cols)
        op = rng.choice(["<=", ">=", "="])
        rhs = rng.randint(-4, 6)
        lines.append(" r%d: %s %s %d" % (i + 1, terms, op, rhs))
    lines.append("Binary")
    lines.append(" " + " ".join("x%d" % j for j in range(1, n + 1)))
    lines.append("End")
    with open(out + ".lp", "w") as f:
        f.write("\n".join(lines) + "\n")


def opb_model(rng, out):
    n = rng.randint(4, 12)
    m = rng.randint(2, 8)
    opb = ["* #variable= %d #constraint= %d" % (n, m)]
    lp = ["Minimize"]
    if rng.random() < 0.6:
        obj = [(rng.randint(-9, 9) or 1, j, rng.random() < 0.3) for j in range(1, n + 1)]
        opb.append("min: " + " ".join("%+d %sx%d" % (a, "~" if neg else "", j)
                                      for a, j, neg in obj) + " ;")
        # a ~x = a - a x
        const = sum(a for a, j, neg in obj if neg)
        # GLPK's LP reader takes no constant term: it rides on a column
        # fixed to 1.
        lp.append(" obj: " + " ".join("%+d x%d" % (-a if neg else a, j)
                                      for a, j, neg in obj) + " %+d one" % const)
    else:
        lp.append(" obj: 0 x1")
    lp.append("Subject To")
    for i in range(m):
        cols = rng.sample(range(1, n + 1), rng.randint(1, n))
        terms = [(rng.randint(-5, 5) or 3, j, rng.random() < 0.3) for j in cols]
        op = rng.choice([">=", "="])
        rhs = rng.randint(-3, 6)
        opb.append(" ".join("%+d %sx%d" % (a, "~" if neg else "", j)
                            for a, j, neg in terms) + " %s %d ;" % (op, rhs))
        const = sum(a for a, j, neg in terms if neg)
        lp.append(" r%d: %s %s %d" % (i + 1, " ".join("%+d x%d" % (-a if neg else a, j)
                                                     for a, j, neg in terms),
                                      op, rhs - const))
    lp.append("Bounds")
    lp.append(" one = 1")
    lp.append("Binary")
    lp.append(" " + " ".join("x%d" % j for j in range(1, n + 1)))
    lp.append("General")
    lp.append(" one")
    lp.append("End")
    with open(out + ".opb", "w") as f:
        f.write("\n".join(opb) + "\n")
    with open(out + ".lp", "w") as f:
        f.write("\n".join(lp) + "\n")


def cnf_model(rng, out):
    n = rng.randint(10, 30)
    m = int(n * rng.uniform(3.8, 4.8))
    with open(out + ".cnf", "w") as f:
        f.write("c random 3-SAT\np cnf %d %d\n" % (n, m))
        for _ in range(m):
            vs = rng.sample(range(1, n + 1), 3)
            f.write(" ".join(str(v if rng.random() < 0.5 else -v) for v in vs) + " 0\n")


def main():
    kind, seed, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    {"lp": lp_model, "opb": opb_model, "cnf": cnf_model}[kind](rng, out)


if __name__ == "__main__":
    main()
