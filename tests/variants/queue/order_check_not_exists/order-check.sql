WITH last AS (
  SELECT order_no, MAX(seq) AS max_seq FROM processed GROUP BY order_no
)
SELECT p.order_no, p.seq, 'missing after' AS problem
FROM processed p
JOIN last l ON l.order_no = p.order_no
WHERE p.seq < l.max_seq
  AND NOT EXISTS (
    SELECT 1 FROM processed n
    WHERE n.order_no = p.order_no AND n.seq = p.seq + 1
  )
UNION ALL
SELECT order_no, seq, 'duplicate'
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1;
