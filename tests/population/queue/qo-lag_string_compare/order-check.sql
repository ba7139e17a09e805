-- orders whose seqs are duplicated or have holes
SELECT order_no,
       COUNT(*) AS rows_,
       COUNT(DISTINCT seq) AS seqs,
       MIN(seq) AS first_seq,
       MAX(seq) AS last_seq
FROM processed
GROUP BY order_no
HAVING COUNT(*) <> COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 <> COUNT(DISTINCT seq);
