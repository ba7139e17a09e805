-- order-check.sql: seq problems inside one order_no
--   missing   : every seq between MIN(seq) and MAX(seq) of an order must be there
--   duplicate : one seq may appear only once per order
-- Clean ledger -> 0 rows.
WITH RECURSIVE
span(order_no, first_seq, last_seq) AS (
    SELECT order_no, MIN(seq), MAX(seq)
    FROM processed
    GROUP BY order_no
),
expected(order_no, seq, last_seq) AS (
    SELECT order_no, first_seq, last_seq FROM span
    UNION ALL
    SELECT order_no, seq + 1, last_seq FROM expected WHERE seq < last_seq
)
SELECT e.order_no, e.seq, 'missing' AS problem
FROM expected AS e
WHERE NOT EXISTS (
    SELECT 1 FROM processed AS p
    WHERE p.order_no = e.order_no AND p.seq = e.seq
)
UNION ALL
SELECT order_no, seq, 'duplicate'
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
ORDER BY 1, 2;
