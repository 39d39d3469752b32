/* Sudoku of order b (grid b^2 x b^2) in GMPL, for glpsol. */
param b integer >= 2;
set N := 1..b * b;
param given{N, N} integer, >= 0, default 0;
var x{N, N, N} binary;
s.t. cell{r in N, c in N}: sum{v in N} x[r, c, v] = 1;
s.t. row{r in N, v in N}: sum{c in N} x[r, c, v] = 1;
s.t. col{c in N, v in N}: sum{r in N} x[r, c, v] = 1;
s.t. box{i in 0..b - 1, j in 0..b - 1, v in N}:
    sum{r in i * b + 1..i * b + b, c in j * b + 1..j * b + b} x[r, c, v] = 1;
s.t. fix{r in N, c in N: given[r, c] > 0}: x[r, c, given[r, c]] = 1;
solve;
/* The grid, one row a line ("." never remains: every cell is filled). */
for {r in N} {
    for {c in N} printf "%s%d", if c > 1 then " " else "",
        sum{v in N} v * x[r, c, v];
    printf "\n";
}
end;
