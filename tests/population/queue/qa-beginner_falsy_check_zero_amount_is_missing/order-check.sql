SELECT order_no, 'seq duplicated' AS problem FROM processed
GROUP BY order_no HAVING COUNT(seq) > COUNT(DISTINCT seq)
UNION ALL
SELECT order_no, 'seq missing' FROM processed
GROUP BY order_no HAVING MAX(seq) - MIN(seq) + 1 > COUNT(DISTINCT seq);
