SELECT order_no, prev_seq, seq
FROM (SELECT order_no, seq,
             LAG(seq) OVER (PARTITION BY order_no ORDER BY seq) prev_seq
      FROM processed)
WHERE seq - prev_seq > 1;
