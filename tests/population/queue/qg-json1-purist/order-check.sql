-- For every order: each seq that occurs more than once, and each seq that is
-- missing between the smallest and the largest seq of that order.
-- No rows = the ledger is in order.
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
)
SELECT e.order_no, e.seq, 'missing' AS problem
FROM expected AS e
WHERE NOT EXISTS (SELECT 1 FROM processed AS p
                  WHERE p.order_no = e.order_no AND p.seq = e.seq)
UNION ALL
SELECT order_no, seq, 'duplicate' AS problem
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
ORDER BY 1, 2;
