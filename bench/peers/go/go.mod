module wuc/bench/peers/go

go 1.26
