-- orders whose seq list is not 1-step continuous:
--   COUNT(*) <> COUNT(DISTINCT seq)                -> some seq appears twice
--   MAX-MIN+1 <> COUNT(DISTINCT seq)               -> some seq between min and max is missing
SELECT order_no,
       COUNT(*)            AS n,
       COUNT(DISTINCT seq) AS distinct_seq,
       MIN(seq)            AS first_seq,
       MAX(seq)            AS last_seq
FROM processed
GROUP BY order_no
HAVING COUNT(*) <> COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 <> COUNT(DISTINCT seq);
