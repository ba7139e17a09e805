-- an order is broken when its seq values do not cover min..max exactly once
SELECT order_no, MIN(seq) AS first_seq, MAX(seq) AS last_seq, COUNT(DISTINCT seq) AS seen
FROM processed
GROUP BY order_no
HAVING COUNT(DISTINCT seq) <> MAX(seq) - MIN(seq) + 1;
