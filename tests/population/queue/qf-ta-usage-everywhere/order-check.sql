-- order-check.sql: problems in processed, one row each (0 rows = clean)
--   dup-seq : the same seq appears more than once inside one order_no
--   gap     : a seq between an order's first and last seq is absent
WITH RECURSIVE
bounds(order_no, lo, hi) AS (
    SELECT order_no, MIN(seq), MAX(seq) FROM processed GROUP BY order_no
),
expected(order_no, seq, hi) AS (
    SELECT order_no, lo, hi FROM bounds
    UNION ALL
    SELECT order_no, seq + 1, hi FROM expected WHERE seq < hi
)
SELECT order_no, seq, 'dup-seq' AS problem
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
SELECT e.order_no, e.seq, 'gap'
FROM expected e
WHERE NOT EXISTS (SELECT 1 FROM processed p WHERE p.order_no = e.order_no AND p.seq = e.seq);
