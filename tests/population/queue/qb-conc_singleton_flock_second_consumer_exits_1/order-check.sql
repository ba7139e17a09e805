-- problems per order: duplicated seq, or a hole between min(seq) and max(seq)
SELECT order_no,
       COUNT(*) AS n,
       COUNT(DISTINCT seq) AS distinct_seq,
       MIN(seq) AS lo,
       MAX(seq) AS hi
FROM processed
GROUP BY order_no
HAVING COUNT(*) > COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 > COUNT(DISTINCT seq);
