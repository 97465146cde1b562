package SseClient;
# A small Server-Sent Events client for the tests (t/api/61_events.t, t/multi/,
# t/faults/): opens a stream with a raw socket, reads it with a time limit, removes
# the chunked framing and splits the events.
#   my $st = SseClient::open($hostport, $path, $token, @headers);
#   my $text = SseClient::read($st, $seconds, qr/until/);
#   my @events = SseClient::events($text);   # ({ id, event, data }, ...)
use strict;
use warnings;
use IO::Select;
use IO::Socket::INET;
use Time::HiRes qw(time);

sub open {
    my ($hostport, $path, $token, @h) = @_;
    my $s = IO::Socket::INET->new(PeerAddr => $hostport, Timeout => 10) or die "connect $hostport: $!\n";
    binmode $s;
    # TOKEN undef: no Authorization header (a spectator of a public mount)
    print {$s} join("\r\n", "GET $path HTTP/1.1", "Host: $hostport",
                    (defined $token ? ("Authorization: Bearer $token") : ()),
                    "Accept: text/event-stream", @h, '', '');
    my $buf = '';
    my $sel = IO::Select->new($s);
    my $t0 = time;
    while ($buf !~ /\r\n\r\n/ && time - $t0 < 10 && $sel->can_read(1)) {
        sysread($s, $buf, 65536, length $buf) or last;
    }
    my ($head, $rest) = split /\r\n\r\n/, $buf, 2;
    return { sock => $s, head => $head // '', raw => $rest // '', sel => $sel };
}

# the text read so far (framing removed), reading until UNTIL matches or SECONDS pass
# or the server ends the stream or closes the connection ($st->{closed} is then set)
sub read {
    my ($st, $secs, $until) = @_;
    my $t0 = time;
    while (time - $t0 < $secs) {
        my $text = dechunk($st->{raw});
        return $text if defined $until && $text =~ $until;
        # the last chunk: the server ended the stream (the connection may stay open)
        if ($st->{raw} =~ /(?:^|\r\n)0\r\n\r\n\z/) {
            $st->{closed} = 1;
            last;
        }
        if ($st->{sel}->can_read(0.2)) {
            my $n = sysread($st->{sock}, $st->{raw}, 65536, length $st->{raw});
            if (!$n) {
                $st->{closed} = 1;
                last;
            }
        }
    }
    return dechunk($st->{raw});
}

sub dechunk {
    my ($raw) = @_;
    my $out = '';
    while ($raw =~ s/^([0-9a-fA-F]+)\r\n//) {
        my $n = hex $1;
        last if $n == 0 || length($raw) < $n;
        $out .= substr($raw, 0, $n, '');
        $raw =~ s/^\r\n//;
    }
    return $out;
}

sub events {
    my ($text) = @_;
    my @ev;
    for my $block (split /\n\n/, $text) {
        my %e;
        for (split /\n/, $block) {
            $e{$1} = $2 if /^(id|event|data): ?(.*)$/;
        }
        push @ev, \%e if $e{event};
    }
    return @ev;
}

sub close {
    my ($st) = @_;
    CORE::close($st->{sock});
}

1;
