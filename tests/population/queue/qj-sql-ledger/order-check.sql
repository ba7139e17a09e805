/* order-check.sql
   Within each order_no, seq must be unique and contiguous from MIN(seq) to MAX(seq).
   Output: order_no | seq | problem   (0 rows = clean). A missing seq is listed one row per
   missing number, so a wide hole gives several rows. */
WITH RECURSIVE
bounds AS (
    SELECT order_no, MIN(seq) AS lo, MAX(seq) AS hi
    FROM processed
    WHERE seq IS NOT NULL
    GROUP BY order_no
),
expected (order_no, seq, hi) AS (
    SELECT order_no, lo, hi FROM bounds
    UNION ALL
    SELECT order_no, seq + 1, hi FROM expected WHERE seq < hi
)
SELECT e.order_no, e.seq, 'missing' AS problem
FROM expected AS e
WHERE NOT EXISTS (SELECT 1 FROM processed AS p WHERE p.order_no = e.order_no AND p.seq = e.seq)
UNION ALL
SELECT order_no, seq, 'duplicate'
FROM processed
WHERE seq IS NOT NULL
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
SELECT order_no, NULL, 'empty'
FROM processed
WHERE seq IS NULL
ORDER BY 1, 2;
