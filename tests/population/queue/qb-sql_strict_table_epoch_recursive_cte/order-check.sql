/* order-check.sql
   For every order_no: expected seq range = MIN(seq)..MAX(seq) (recursive CTE),
   anti-join against processed -> missing seq; GROUP BY/HAVING -> duplicated seq.
   Clean ledger -> empty result set. */
WITH RECURSIVE
bounds AS (
    SELECT order_no, MIN(seq) AS lo, MAX(seq) AS hi
    FROM processed
    GROUP BY order_no
),
expected (order_no, seq, hi) AS (
    SELECT order_no, lo, hi FROM bounds
    UNION ALL
    SELECT order_no, seq + 1, hi FROM expected WHERE seq < hi
),
missing AS (
    SELECT e.order_no, e.seq, 'missing' AS problem
    FROM expected AS e
    WHERE NOT EXISTS (SELECT 1 FROM processed AS p WHERE p.order_no = e.order_no AND p.seq = e.seq)
),
duplicated AS (
    SELECT order_no, seq, 'duplicate x' || COUNT(*) AS problem
    FROM processed
    GROUP BY order_no, seq
    HAVING COUNT(*) > 1
)
SELECT order_no, seq, problem FROM missing
UNION ALL
SELECT order_no, seq, problem FROM duplicated
ORDER BY order_no, seq;
