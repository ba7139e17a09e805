-- walk the ledger in (order_no, seq) order and compare every row with the row before it:
-- same seq again = duplicate, a jump of more than 1 = missing seq
SELECT order_no, prev_seq, seq,
       CASE WHEN seq = prev_seq THEN 'duplicate' ELSE 'missing' END AS problem
FROM (
    SELECT order_no, seq,
           LAG(seq) OVER (ORDER BY order_no, seq) AS prev_seq
    FROM processed
)
WHERE seq = prev_seq OR seq - prev_seq > 1;
