-- 6단계: 빠진 seq(폭과 개수에 상관없이)와 중복된 seq
SELECT p.order_no, p.seq + 1 AS missing_from
  FROM processed p
 WHERE p.seq < (SELECT MAX(seq) FROM processed m WHERE m.order_no = p.order_no)
   AND NOT EXISTS (SELECT 1 FROM processed n WHERE n.order_no = p.order_no AND n.seq = p.seq + 1)
UNION ALL
SELECT order_no, seq FROM processed GROUP BY order_no, seq HAVING COUNT(*) > 1;
