// Measures the two face detectors issue 31 names, on the same pictures, for `make bench`:
// dlib's HOG frontal-face detector and OpenCV's Haar cascades (frontalface_default and _alt2)
// and LBP cascade. A portrait (scikit-image's astronaut, face box measured by eye) is pasted at
// seeded random places and sizes (face 8-20 % of the short side) into 4032x3024 landscapes made
// from photos without faces; each detector searches a grey copy scaled so that the smallest
// such face is its own window size (dlib 80 px, cascades 24 px), and a hit is a box whose centre
// lies in the true face box. Prints markdown table rows: detector, copy size, hits, false boxes,
// mean milliseconds per search (single thread, the copy made beforehand).
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/opencv.h>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/objdetect.hpp>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace {
struct Box { double x0, y0, x1, y1; };
using Clock = std::chrono::steady_clock;
double since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }
}

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: compare PORTRAIT CASCADE_DIR BACKGROUND...\n");
        return 2;
    }
    cv::setNumThreads(0);  // one thread, as the detector runs inside a command beside others
    const cv::Mat portrait = cv::imread(argv[1]);
    const std::string cascades = argv[2];
    std::vector<cv::Mat> backgrounds;
    for (int i = 3; i < argc; ++i) {
        cv::Mat picture = cv::imread(argv[i]);
        if (!picture.empty()) backgrounds.push_back(picture);
    }
    if (portrait.empty() || backgrounds.empty()) {
        std::fprintf(stderr, "compare: cannot read the portrait or any background\n");
        return 1;
    }
    const Box face{172, 75, 278, 178};  // in the 512x512 astronaut
    const double smallest = 0.07;       // the smallest face searched for, of the short side
    auto dlibDetector = dlib::get_frontal_face_detector();
    cv::CascadeClassifier haar(cascades + "/haarcascades/haarcascade_frontalface_default.xml");
    cv::CascadeClassifier alt2(cascades + "/haarcascades/haarcascade_frontalface_alt2.xml");
    cv::CascadeClassifier lbp(cascades + "/lbpcascades/lbpcascade_frontalface_improved.xml");
    const char *names[] = {"dlib HOG (frontal_face_detector)", "OpenCV Haar frontalface_default", "OpenCV Haar frontalface_alt2",
                           "OpenCV LBP frontalface_improved"};
    const double windows[] = {80, 24, 24, 24};
    std::mt19937 random(7);
    std::uniform_real_distribution<double> unit(0, 1);
    const int placements = 40;
    int hits[4] = {0}, wrong[4] = {0};
    double milliseconds[4] = {0};
    cv::Size copies[4];
    for (int i = 0; i < placements; ++i) {
        cv::Mat canvas;
        cv::resize(backgrounds[i % backgrounds.size()], canvas, cv::Size(4032, 3024), 0, 0, cv::INTER_CUBIC);
        const double scale = (0.4 + 0.6 * unit(random)) * 3024 / 512;
        cv::Mat person;
        cv::resize(portrait, person, cv::Size(int(512 * scale), int(512 * scale)), 0, 0, cv::INTER_AREA);
        const int x = int(unit(random) * (4032 - person.cols)), y = int(unit(random) * (3024 - person.rows));
        person.copyTo(canvas(cv::Rect(x, y, person.cols, person.rows)));
        const Box truth{x + face.x0 * scale, y + face.y0 * scale, x + face.x1 * scale, y + face.y1 * scale};
        for (int d = 0; d < 4; ++d) {
            const double k = windows[d] / (smallest * 3024);
            cv::Mat small, grey;
            cv::resize(canvas, small, cv::Size(int(4032 * k), int(3024 * k)), 0, 0, cv::INTER_AREA);
            cv::cvtColor(small, grey, cv::COLOR_BGR2GRAY);
            copies[d] = grey.size();
            std::vector<Box> found;
            const auto start = Clock::now();
            if (d == 0) {
                dlib::cv_image<unsigned char> image(grey);
                for (const auto &r : dlibDetector(image))
                    found.push_back({r.left() / k, r.top() / k, (r.right() + 1) / k, (r.bottom() + 1) / k});
            } else {
                std::vector<cv::Rect> boxes;
                cv::CascadeClassifier &cascade = d == 1 ? haar : d == 2 ? alt2 : lbp;
                cascade.detectMultiScale(grey, boxes, 1.2, 3, 0, cv::Size(24, 24));
                for (const auto &r : boxes) found.push_back({r.x / k, r.y / k, (r.x + r.width) / k, (r.y + r.height) / k});
            }
            milliseconds[d] += since(start);
            bool hit = false;
            for (const auto &f : found) {
                const double cx = (f.x0 + f.x1) / 2, cy = (f.y0 + f.y1) / 2;
                if (cx > truth.x0 && cx < truth.x1 && cy > truth.y0 && cy < truth.y1) hit = true; else ++wrong[d];
            }
            hits[d] += hit;
        }
    }
    for (int d = 0; d < 4; ++d) {
        std::printf("| %s | %d×%d | %d of %d | %d | %.1f ms |\n", names[d], copies[d].width, copies[d].height, hits[d],
                    placements, wrong[d], milliseconds[d] / placements);
    }
    return 0;
}
