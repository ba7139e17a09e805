SELECT order_no, COUNT(*), COUNT(DISTINCT seq), MIN(seq), MAX(seq)
FROM processed
GROUP BY order_no
HAVING COUNT(*) != COUNT(DISTINCT seq)
    OR MAX(seq) - MIN(seq) + 1 != COUNT(DISTINCT seq);
