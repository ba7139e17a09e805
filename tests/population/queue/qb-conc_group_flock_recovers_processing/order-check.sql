-- one row per order_no whose seq set is not a gap-free, duplicate-free run
--   duplicates : COUNT(*) > COUNT(DISTINCT seq)
--   holes      : MAX-MIN+1 > COUNT(DISTINCT seq)
SELECT order_no,
       COUNT(*)                 AS n_rows,
       COUNT(DISTINCT seq)      AS n_distinct_seq,
       MIN(seq)                 AS min_seq,
       MAX(seq)                 AS max_seq
FROM processed
GROUP BY order_no
HAVING COUNT(*) <> COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 <> COUNT(DISTINCT seq);
