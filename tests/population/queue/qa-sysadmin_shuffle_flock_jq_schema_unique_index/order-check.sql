-- each row: an order whose seq repeats (gap = 0) or skips numbers (gap > 1)
SELECT p.order_no, p.seq,
       p.seq - (SELECT MAX(x.seq) FROM processed x
                 WHERE x.order_no = p.order_no AND x.seq < p.seq) AS gap
  FROM processed p
 WHERE p.seq - (SELECT MAX(x.seq) FROM processed x
                 WHERE x.order_no = p.order_no AND x.seq < p.seq) > 1
UNION ALL
SELECT order_no, seq, 0 FROM processed GROUP BY order_no, seq HAVING count(*) > 1;
