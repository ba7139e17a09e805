-- order-check.sql
-- For every order_no, build the full expected seq range MIN(seq)..MAX(seq) and compare it
-- with what is in processed: a seq with no row is 'missing', a seq with >1 rows is 'duplicate'.
-- 0 rows = every order is gap-free and duplicate-free.
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
    actual AS (
        SELECT order_no, seq, COUNT(*) AS n
        FROM processed
        GROUP BY order_no, seq
    )
SELECT e.order_no,
       e.seq,
       CASE WHEN a.n IS NULL THEN 'missing' ELSE 'duplicate(' || a.n || ')' END AS issue
FROM expected AS e
LEFT JOIN actual AS a ON a.order_no = e.order_no AND a.seq = e.seq
WHERE a.n IS NULL OR a.n > 1
ORDER BY e.order_no, e.seq;
