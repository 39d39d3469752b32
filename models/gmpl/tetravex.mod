/* Tetravex in GMPL: tile t on cell (i,j), each cell one tile, each tile one
 * cell, and a tile's right (bottom) side matched by a neighbour. */
param N integer >= 1;
set T := 1..N * N;
set C := 1..N;
param left{T} integer;
param up{T} integer;
param right{T} integer;
param down{T} integer;
var x{C, C, T} binary;
s.t. cell{i in C, j in C}: sum{t in T} x[i, j, t] = 1;
s.t. tile{t in T}: sum{i in C, j in C} x[i, j, t] = 1;
s.t. horiz{i in C, j in 1..N - 1, t in T}:
    x[i, j, t] <= sum{u in T: u != t and left[u] = right[t]} x[i, j + 1, u];
s.t. vert{i in 1..N - 1, j in C, t in T}:
    x[i, j, t] <= sum{u in T: u != t and up[u] = down[t]} x[i + 1, j, u];
solve;
/* The board: the tile (its number in the data) on each cell. */
for {i in C} {
    for {j in C} printf "%s%d", if j > 1 then " " else "",
        sum{t in T} t * x[i, j, t];
    printf "\n";
}
end;
