/* n-Queens in GMPL, the same rows as ilpm's queens model, for glpsol. */
param n integer > 0;
set N := 1..n;
var q{N, N} binary;
s.t. row{i in N}: sum{j in N} q[i, j] = 1;
s.t. col{j in N}: sum{i in N} q[i, j] = 1;
s.t. diag{d in -(n - 2)..n - 2}:
    sum{i in N: i + d >= 1 and i + d <= n} q[i, i + d] <= 1;
s.t. anti{a in 3..2 * n - 1}:
    sum{i in N: a - i >= 1 and a - i <= n} q[i, a - i] <= 1;
solve;
/* The board: Q where a queen stands. */
for {i in N} {
    for {j in N} printf "%s", if q[i, j] then "Q" else ".";
    printf "\n";
}
end;
