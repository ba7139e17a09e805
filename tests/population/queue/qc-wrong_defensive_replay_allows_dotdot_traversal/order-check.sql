-- Returns one row per problem; no rows means every order is contiguous and unique.
SELECT order_no, seq, 'duplicate' AS problem
FROM processed
GROUP BY order_no, seq
HAVING COUNT(*) > 1
UNION ALL
SELECT order_no, seq, 'gap before this seq' AS problem
FROM (
    SELECT order_no, seq,
           LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) AS prev_seq
    FROM processed
)
WHERE prev_seq IS NOT NULL AND seq > prev_seq + 1;
