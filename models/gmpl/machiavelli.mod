/* Machiavelli table reconstruction in GMPL: the report's planes
 * formulation (without its deck rows, which cut off valid tables), D run
 * planes and D set planes, ace low, no wrap. */
param D integer >= 1;
set S := 1..4;
set R := 1..13;
set K := 1..D;
param cnt{S, R} integer, >= 0, default 0;
var xr{S, R, K} binary;
var xs{S, R, K} binary;
var y{R, K} binary;
s.t. set_hi{r in R, k in K}: 4 * y[r, k] >= sum{s in S} xs[s, r, k];
s.t. set_lo{r in R, k in K}: sum{s in S} xs[s, r, k] >= 3 * y[r, k];
s.t. no010{s in S, r in R, k in K}:
    (if r > 1 then -xr[s, r - 1, k] else 0) + xr[s, r, k]
    - (if r < 13 then xr[s, r + 1, k] else 0) <= 0;
s.t. no0110{s in S, r in 1..12, k in K}:
    (if r > 1 then -xr[s, r - 1, k] else 0) + xr[s, r, k] + xr[s, r + 1, k]
    - (if r < 12 then xr[s, r + 2, k] else 0) <= 1;
s.t. consistency{s in S, r in R}:
    sum{k in K} (xr[s, r, k] + xs[s, r, k]) = cnt[s, r];
solve;
/* The melds: each run plane's runs (maximal stretches of one suit), then
 * each set plane's sets, in cards "rank suit". */
for {k in K, s in S, r in R: xr[s, r, k] and (r = 1 or not xr[s, r - 1, k])} {
    printf "run:";
    for {t in r..13: t - r = sum{u in r..t} xr[s, u, k] - 1}
        printf " %d%s", t, if s = 1 then "H" else if s = 2 then "D"
            else if s = 3 then "S" else "C";
    printf "\n";
}
for {k in K, r in R: y[r, k]} {
    printf "set:";
    for {s in S: xs[s, r, k]}
        printf " %d%s", r, if s = 1 then "H" else if s = 2 then "D"
            else if s = 3 then "S" else "C";
    printf "\n";
}
end;
