* Problem:    ilpm
* Class:      MIP
* Rows:       1
* Columns:    2 (2 integer, 2 binary)
* Non-zeros:  2
* Format:     Free MPS
*
* ilpm: the model maximises; MPS has no objective sense, so this file
* minimises the negated objective: its optimum is minus the model's.
NAME ilpm
ROWS
 N R0000000
 L amo_1
COLUMNS
 M0000001 'MARKER' 'INTORG'
 x(1) R0000000 -3 amo_1 1
 x(2) R0000000 -2 amo_1 1
 M0000002 'MARKER' 'INTEND'
RHS
 RHS1 amo_1 1
BOUNDS
 UP BND1 x(1) 1
 UP BND1 x(2) 1
ENDATA
