/* Langford L(k,n) in GMPL: the start of each value's first copy, and each
 * position covered exactly once (ilpm's "positions" formulation). */
param k integer >= 2;
param n integer >= 1;
set V := 1..n;
set P := 1..n * k;
set S := {v in V, p in P: p + (k - 1) * (v + 1) <= n * k};
var y{S} binary;
s.t. place{v in V}: sum{(v, p) in S} y[v, p] = 1;
s.t. cover{q in P}:
    sum{(v, p) in S, c in 0..k - 1: p + c * (v + 1) = q} y[v, p] = 1;
solve;
/* The sequence: the value at each position. */
for {q in P} printf "%s%d", if q > 1 then " " else "",
    sum{(v, p) in S, c in 0..k - 1: p + c * (v + 1) = q} v * y[v, p];
printf "\n";
end;
