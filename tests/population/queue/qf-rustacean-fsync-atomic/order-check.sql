-- rows = problems. A duplicated seq inside an order, or a hole between the
-- smallest and largest seq of an order (any width, any number of holes).
WITH per_order AS (
    SELECT order_no,
           MIN(seq)                AS lo,
           MAX(seq)                AS hi,
           COUNT(*)                AS n,
           COUNT(DISTINCT seq)     AS nd
    FROM processed
    GROUP BY order_no
)
SELECT order_no, 'duplicate-seq' AS problem, n - nd AS how_many
FROM per_order
WHERE n <> nd
UNION ALL
SELECT order_no, 'missing-seq' AS problem, (hi - lo + 1) - nd AS how_many
FROM per_order
WHERE (hi - lo + 1) <> nd
ORDER BY order_no, problem;
